// A git-style unified diff for one file whose old and new content the host knows exactly (the
// relocated and search/replace rungs): made with jsdiff, headed the way `git apply` expects.
import { structuredPatch } from 'diff';

/** One file's change: paths (null for the missing side of an add or delete) and contents. */
export interface FileChange {
  oldPath: string | null;
  newPath: string | null;
  before: string | null;
  after: string | null;
  /** Mode lines to keep ("old mode 100644", "new mode 100755", "new file mode 100755"), already vetted. */
  modes?: string[];
}

/** The diff text of one file change ('' when it changes nothing). */
export function renderFileDiff(change: FileChange): string {
  const { oldPath, newPath, before, after } = change;
  const from = oldPath ?? newPath;
  const to = newPath ?? oldPath;
  if (from === null || to === null) return '';
  const modes = change.modes ?? [];
  const renamed = oldPath !== null && newPath !== null && oldPath !== newPath;
  if (!renamed && before === after && modes.length === 0) return '';
  const out = [`diff --git ${quote(`a/${from}`)} ${quote(`b/${to}`)}`];
  if (oldPath === null) out.push(modes.find((m) => m.startsWith('new file mode ')) ?? 'new file mode 100644');
  else if (newPath === null) out.push(...modes.filter((m) => m.startsWith('deleted file mode ')));
  else out.push(...modes.filter((m) => m.startsWith('old mode ') || m.startsWith('new mode ')));
  if (renamed) out.push(`rename from ${quote(oldPath)}`, `rename to ${quote(newPath)}`);
  const hunks = structuredPatch('a', 'b', before ?? '', after ?? '', undefined, undefined, { context: 3 }).hunks;
  if (hunks.length > 0) {
    out.push(
      `--- ${oldPath === null ? '/dev/null' : quote(`a/${oldPath}`)}`,
      `+++ ${newPath === null ? '/dev/null' : quote(`b/${newPath}`)}`,
    );
    for (const h of hunks) {
      out.push(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`, ...h.lines);
    }
  }
  return `${out.join('\n')}\n`;
}

// git writes the start of an empty side one line earlier ("-0,0" for a new file).
function range(start: number, count: number): string {
  return `${count === 0 ? start - 1 : start},${count}`;
}

// Paths go unquoted unless they hold a double quote (control characters and backslashes never get this far).
function quote(path: string): string {
  return path.includes('"') ? `"${path.replace(/"/g, '\\"')}"` : path;
}
