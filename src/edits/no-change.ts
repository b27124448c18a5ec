// Edits that change nothing: every hunk's new lines equal its old ones (context only, or each
// removed line added back as it was) and no file is created, deleted, renamed, copied or has its
// mode changed. Refused before git, naming each hunk, instead of a candidate that applies and
// leaves the tree as it was.
import type { FilePatch } from '../patch/parse-patch.js';
import { fileSides } from '../patch/file-paths.js';
import { changesLines } from './already-applied.js';
import { hunkLabel, hunkSides } from './apply-hunks.js';
import type { EditFailure } from './failures.js';
import type { SearchReplaceBlock } from './search-replace.js';

/** One no_change failure per hunk when the diff as a whole changes nothing, else null. */
export function diffChangesNothing(files: readonly FilePatch[]): EditFailure[] | null {
  const failures: EditFailure[] = [];
  for (const f of files) {
    const s = fileSides(f);
    if (s.oldPath === null || s.newPath === null || s.oldPath !== s.newPath || s.copy || s.modes.length > 0 || f.binary)
      return null;
    for (const [k, h] of f.hunks.entries()) {
      const sides = hunkSides(h);
      if (changesLines(sides.old, sides.new)) return null;
      failures.push({ path: s.oldPath, what: hunkLabel(h, k), kind: 'no_change' });
    }
  }
  return failures.length > 0 ? failures : null;
}

/** One no_change failure per block when every block's REPLACE equals its SEARCH, else null. */
export function blocksChangeNothing(blocks: readonly SearchReplaceBlock[]): EditFailure[] | null {
  if (blocks.length === 0 || blocks.some((b) => changesLines(b.search, b.replace))) return null;
  return blocks.map((b, k) => ({ path: b.path, what: `SEARCH/REPLACE block ${k + 1}`, kind: 'no_change' }));
}
