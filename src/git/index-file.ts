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
