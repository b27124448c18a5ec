// Reading entries out of a git index file (the workbench's scratch index), so the syntax gate can
// find the blobs a patch left, and the policy what it changed, without a `git write-tree` and a
// `git diff-tree`. Only versions 2 and 3 are read (what git writes unless index.version or
// feature.manyFiles says otherwise); anything else is "unknown", and the caller asks git instead.

/** One stage-0 entry: its mode as git prints it (e.g. "100644") and its object id. */
export interface IndexEntry {
  mode: string;
  oid: string;
}

const SIGNATURE = 0x44495243; // "DIRC"
const STAT_BYTES = 40;
const FLAG_EXTENDED = 0x4000;
const NAME_MASK = 0x0fff;

/** One raw entry: where its name lies in the file, its stage, mode and where its object id lies. */
interface RawEntry {
  nameAt: number;
  nameEnd: number;
  stage: number;
  mode: number;
  oidAt: number;
}

/** Every entry of an index file in its order (git's: by path bytes, then stage), or null when this does not read it. */
function rawEntries(data: Buffer, hashBytes: number, each: (e: RawEntry) => boolean): boolean {
  if (data.length < 12 || data.readUInt32BE(0) !== SIGNATURE) return false;
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) return false;
  const count = data.readUInt32BE(8);
  let pos = 12;
  for (let i = 0; i < count; i++) {
    const fixed = STAT_BYTES + hashBytes + 2;
    if (pos + fixed > data.length) return false;
    const flags = data.readUInt16BE(pos + STAT_BYTES + hashBytes);
    const extended = (flags & FLAG_EXTENDED) !== 0;
    if (extended && version < 3) return false;
    const nameAt = pos + fixed + (extended ? 2 : 0);
    let nameLength = flags & NAME_MASK;
    if (nameLength === NAME_MASK) {
      const nul = data.indexOf(0, nameAt);
      if (nul < 0) return false;
      nameLength = nul - nameAt;
    }
    if (nameAt + nameLength > data.length) return false;
    const entry = {
      nameAt,
      nameEnd: nameAt + nameLength,
      stage: (flags >> 12) & 3,
      mode: data.readUInt32BE(pos + 24),
      oidAt: pos + STAT_BYTES,
    };
    if (!each(entry)) return true;
    // the entry, its name and 1-8 NULs make a multiple of eight bytes
    pos += (nameAt - pos + nameLength + 8) & ~7;
  }
  return true;
}

/** One path whose entry differs between two indexes (null: absent on that side). */
export interface IndexChange {
  path: string;
  before: IndexEntry | null;
  after: IndexEntry | null;
}

/**
 * Every path whose stage-0 entry (mode or object id) differs between two index files, in git's
 * order (the order `git diff-tree -r` of their trees gives): what a patch applied to `before` did.
 * Null when either is not an index this reads, or holds an unmerged entry.
 */
export function indexChanges(before: Buffer, after: Buffer, hashBytes: number): IndexChange[] | null {
  const list = (data: Buffer): RawEntry[] | null => {
    const out: RawEntry[] = [];
    let merged = true;
    const read = rawEntries(data, hashBytes, (e) => {
      if (e.stage !== 0) merged = false;
      out.push(e);
      return merged;
    });
    return read && merged ? out : null;
  };
  const a = list(before);
  const b = list(after);
  if (a === null || b === null) return null;
  const entry = (data: Buffer, e: RawEntry): IndexEntry => ({
    mode: e.mode.toString(8),
    oid: data.toString('hex', e.oidAt, e.oidAt + hashBytes),
  });
  const name = (data: Buffer, e: RawEntry): string => data.toString('utf8', e.nameAt, e.nameEnd);
  const changes: IndexChange[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    const order =
      x === undefined
        ? 1
        : y === undefined
          ? -1
          : Buffer.compare(before.subarray(x.nameAt, x.nameEnd), after.subarray(y.nameAt, y.nameEnd));
    if (order < 0) {
      changes.push({ path: name(before, x!), before: entry(before, x!), after: null });
      i++;
    } else if (order > 0) {
      changes.push({ path: name(after, y!), before: null, after: entry(after, y!) });
      j++;
    } else {
      if (
        x!.mode !== y!.mode ||
        before.compare(after, y!.oidAt, y!.oidAt + hashBytes, x!.oidAt, x!.oidAt + hashBytes) !== 0
      )
        changes.push({ path: name(before, x!), before: entry(before, x!), after: entry(after, y!) });
      i++;
      j++;
    }
  }
  return changes;
}

/**
 * The stage-0 entries of `wanted` paths in an index file (a wanted path not there is absent from the
 * map), or null when the file is not an index this reads (another version, a malformed entry).
 */
export function indexEntries(
  data: Buffer,
  hashBytes: number,
  wanted: ReadonlySet<string>,
): Map<string, IndexEntry> | null {
  const found = new Map<string, IndexEntry>();
  const read = rawEntries(data, hashBytes, (e) => {
    if (e.stage === 0 && wanted.size > found.size) {
      const path = data.toString('utf8', e.nameAt, e.nameEnd);
      if (wanted.has(path))
        found.set(path, { mode: e.mode.toString(8), oid: data.toString('hex', e.oidAt, e.oidAt + hashBytes) });
    }
    return found.size < wanted.size;
  });
  return read ? found : null;
}

/** One stage-0 entry with what git compares the working tree against. */
export interface IndexStatEntry {
  path: string;
  /** "100644", "100755", "120000" (a link), "160000" (a submodule). */
  mode: string;
  mtimeSec: number;
  mtimeNsec: number;
  /** The size modulo 2^32, as the index keeps it. */
  size: number;
  /** The entry is not compared with the working tree (assume-unchanged, skip-worktree). */
  skip: boolean;
}

const FLAG_ASSUME_VALID = 0x8000;
const EXTENDED_SKIP_WORKTREE = 0x4000;

/** Every stage-0 entry of an index file (versions 2 and 3), or null when it is not an index this reads. */
export function indexStatEntries(data: Buffer, hashBytes: number): IndexStatEntry[] | null {
  if (data.length < 12 || data.readUInt32BE(0) !== SIGNATURE) return null;
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) return null;
  const count = data.readUInt32BE(8);
  const out: IndexStatEntry[] = [];
  let pos = 12;
  for (let i = 0; i < count; i++) {
    const fixed = STAT_BYTES + hashBytes + 2;
    if (pos + fixed > data.length) return null;
    const flags = data.readUInt16BE(pos + STAT_BYTES + hashBytes);
    const extended = (flags & FLAG_EXTENDED) !== 0;
    if (extended && version < 3) return null;
    const extendedFlags = extended ? data.readUInt16BE(pos + fixed) : 0;
    const nameAt = pos + fixed + (extended ? 2 : 0);
    let nameLength = flags & NAME_MASK;
    if (nameLength === NAME_MASK) {
      const nul = data.indexOf(0, nameAt);
      if (nul < 0) return null;
      nameLength = nul - nameAt;
    }
    if (nameAt + nameLength > data.length) return null;
    if (((flags >> 12) & 3) === 0)
      out.push({
        path: data.toString('utf8', nameAt, nameAt + nameLength),
        mode: data.readUInt32BE(pos + 24).toString(8),
        mtimeSec: data.readUInt32BE(pos + 8),
        mtimeNsec: data.readUInt32BE(pos + 12),
        size: data.readUInt32BE(pos + 36),
        skip: (flags & FLAG_ASSUME_VALID) !== 0 || (extendedFlags & EXTENDED_SKIP_WORKTREE) !== 0,
      });
    pos += (nameAt - pos + nameLength + 8) & ~7;
  }
  return out;
}
