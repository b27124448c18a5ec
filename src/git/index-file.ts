// Reading entries out of a git index file (the workbench's scratch index), so the syntax gate can
// find the blobs a patch left without a `git write-tree`. Only versions 2 and 3 are read (what git
// writes unless index.version or feature.manyFiles says otherwise); anything else is "unknown", and
// the caller asks git instead.

/** One stage-0 entry: its mode as git prints it (e.g. "100644") and its object id. */
export interface IndexEntry {
  mode: string;
  oid: string;
}

const SIGNATURE = 0x44495243; // "DIRC"
const STAT_BYTES = 40;
const FLAG_EXTENDED = 0x4000;
const NAME_MASK = 0x0fff;

/**
 * The stage-0 entries of `wanted` paths in an index file (a wanted path not there is absent from the
 * map), or null when the file is not an index this reads (another version, a malformed entry).
 */
export function indexEntries(
  data: Buffer,
  hashBytes: number,
  wanted: ReadonlySet<string>,
): Map<string, IndexEntry> | null {
  if (data.length < 12 || data.readUInt32BE(0) !== SIGNATURE) return null;
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) return null;
  const count = data.readUInt32BE(8);
  const found = new Map<string, IndexEntry>();
  let pos = 12;
  for (let i = 0; i < count; i++) {
    const fixed = STAT_BYTES + hashBytes + 2;
    if (pos + fixed > data.length) return null;
    const mode = data.readUInt32BE(pos + 24);
    const oid = data.toString('hex', pos + STAT_BYTES, pos + STAT_BYTES + hashBytes);
    const flags = data.readUInt16BE(pos + STAT_BYTES + hashBytes);
    const extended = (flags & FLAG_EXTENDED) !== 0;
    if (extended && version < 3) return null;
    const nameAt = pos + fixed + (extended ? 2 : 0);
    let nameLength = flags & NAME_MASK;
    if (nameLength === NAME_MASK) {
      const nul = data.indexOf(0, nameAt);
      if (nul < 0) return null;
      nameLength = nul - nameAt;
    }
    if (nameAt + nameLength > data.length) return null;
    const stage = (flags >> 12) & 3;
    if (stage === 0 && wanted.size > found.size) {
      const path = data.toString('utf8', nameAt, nameAt + nameLength);
      if (wanted.has(path)) found.set(path, { mode: mode.toString(8), oid });
      if (found.size === wanted.size) break;
    }
    // the entry, its name and 1-8 NULs make a multiple of eight bytes
    pos += (nameAt - pos + nameLength + 8) & ~7;
  }
  return found;
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
