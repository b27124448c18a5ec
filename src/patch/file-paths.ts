// What a vetted file section of a diff does, in repo paths: its old and new path (null for the
// missing side of an add or delete), whether it copies, and its mode lines.
import type { FilePatch } from './parse-patch.js';
import { stripPrefix, unquoteGitPath } from './patch-paths.js';
import { parseGitHeader } from './validate-diff.js';

/** A file section's paths and modes. */
export interface FileSides {
  oldPath: string | null;
  newPath: string | null;
  copy: boolean;
  /** "new file mode ...", "deleted file mode ...", "old mode ...", "new mode ..." lines. */
  modes: string[];
}

/** The sides of a file section (the same reading validateDiff makes). */
export function fileSides(f: FilePatch): FileSides {
  const ext = (key: string): string | null => {
    const l = f.extended.find((x) => x.startsWith(key));
    return l === undefined ? null : unquoteGitPath(l.slice(key.length).trimEnd());
  };
  const modes = f.extended.filter((l) => /^(new file mode|deleted file mode|old mode|new mode) /.test(l));
  const isNew = modes.some((m) => m.startsWith('new file mode '));
  const isDeleted = modes.some((m) => m.startsWith('deleted file mode '));
  let oldPath: string | null = null;
  let newPath: string | null = null;
  if (f.oldPath !== null && f.newPath !== null) {
    oldPath = f.oldPath === '/dev/null' ? null : stripPrefix(f.oldPath, 'a/');
    newPath = f.newPath === '/dev/null' ? null : stripPrefix(f.newPath, 'b/');
  } else if (f.gitHeader !== null) {
    const g = parseGitHeader(f.gitHeader);
    oldPath = isNew ? null : (g?.old ?? null);
    newPath = isDeleted ? null : (g?.new ?? null);
  }
  const renameFrom = ext('rename from ') ?? ext('copy from ');
  const renameTo = ext('rename to ') ?? ext('copy to ');
  if (renameFrom !== null) oldPath = renameFrom;
  if (renameTo !== null) newPath = renameTo;
  return { oldPath, newPath, copy: ext('copy from ') !== null, modes };
}
