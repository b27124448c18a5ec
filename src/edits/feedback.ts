// The text the next prompt shows when an edit could not be applied: which file and hunk failed,
// which of its lines are not in the file, and the closest region of the file with line numbers.
import type { Region } from './closest-region.js';
import type { EditFailure } from './failures.js';

const MAX_FAILURES = 4;

/** Render failures for the model (plain text, numbered file lines), at most a few of them. */
export function renderFailures(failures: readonly EditFailure[]): string {
  const out: string[] = [];
  for (const f of failures.slice(0, MAX_FAILURES)) out.push(renderOne(f));
  if (failures.length > MAX_FAILURES)
    out.push(`(${failures.length - MAX_FAILURES} more edits could not be placed either)`);
  return out.join('\n\n');
}

function renderOne(f: EditFailure): string {
  const head = `${f.path}, ${f.what}:`;
  switch (f.kind) {
    case 'not_found': {
      const parts = [`${head} its lines (context and removed) were not found in the current file.`];
      if (f.missing.length > 0)
        parts.push(`These lines are not in ${f.path} at all:\n${f.missing.map((l) => `    ${l}`).join('\n')}`);
      else if (f.skipped.length > 0) {
        const which =
          f.skipped.length === 1
            ? `line ${f.skipped[0]!.line} of ${f.path} stands`
            : `lines ${f.skipped.map((s) => s.line).join(', ')} of ${f.path} stand`;
        parts.push(
          `Each line exists, but not next to each other: ${which} between them, which your lines leave out:\n${f.skipped.map((s) => `    ${s.text}`).join('\n')}`,
        );
      } else if (f.apart !== undefined && f.apart.length > 0) {
        const where = f.region === null ? '' : ` (around line ${f.region.start + 2})`;
        parts.push(
          `Each line exists, but not next to each other: these stand elsewhere in ${f.path}, far from where the rest of your lines are${where}; a hunk is placed only where all of its context is:\n${f.apart.map((a) => `    line ${a.line}: ${a.text}`).join('\n')}`,
        );
      } else parts.push('Each line exists, but not in this order or not next to each other.');
      parts.push(regionText(f.path, f.region));
      return parts.join('\n');
    }
    case 'repeats_beside': {
      const lines = f.count === 1 ? `line ${f.at}` : `lines ${f.at}-${f.at + f.count - 1}`;
      return [
        `${head} its lines are in ${f.path} at ${lines}, but line ${f.beside.line} right beside them repeats what it changes (a line it replaces, or text its added lines already hold), so applying it there would leave that text twice:`,
        `    ${f.beside.text}`,
        `The file has changed around it since those lines were written. ${regionText(f.path, f.region)}`,
      ].join('\n');
    }
    case 'ambiguous':
      return `${head} its lines match ${f.at.length} places (lines ${f.at.slice(0, 6).join(', ')}${f.at.length > 6 ? ', ...' : ''}); include more surrounding lines so they match exactly one place.`;
    case 'already_applied': {
      const lines = f.count === 1 ? `line ${f.at}` : `lines ${f.at}-${f.at + f.count - 1}`;
      return `${head} it is already applied: its lines are in ${f.path} at ${lines}, and the lines it would remove are not there. Leave it out; applying it again would add a second copy.`;
    }
    case 'syntax_error': {
      const end = f.region.start + f.region.lines.length - 1;
      const width = String(end).length;
      const numbered = f.region.lines
        .map(
          (l, k) => `${f.region.start + k === f.line ? '>' : ' '} ${String(f.region.start + k).padStart(width)} | ${l}`,
        )
        .join('\n');
      const how = f.every ? 'every way it could be applied leaves' : 'applied, it leaves';
      const shown = f.region.at === 'error' ? 'The lines around it' : 'The changed lines';
      return `${head} ${how} a syntax error ${f.path} did not have, at line ${f.line}, column ${f.column}: ${f.message}. ${shown} would read:\n${numbered}`;
    }
    case 'no_change':
      return `${head} it changes nothing: its added lines are the same as its removed lines (or it has only context lines).`;
    case 'no_file':
      return `${head} ${f.path} does not exist in the repository; create it with "--- /dev/null" (or an empty SEARCH), or use an existing path.`;
    case 'guessed_path':
      return `${head} no "---"/"+++" header names its file, and ${f.path}, the name taken from the text before it, is not a file in the repository; put "--- a/<path>" and "+++ b/<path>" lines naming the file before its hunks.`;
    case 'exists':
      return `${head} ${f.path} already exists; change it with hunks (or a SEARCH that quotes its lines) instead of creating it.`;
    case 'unreadable':
      return `${head} ${f.reason}.`;
    case 'no_context':
      return `${head} it has no context or removed lines, so there is nothing to place it by; include the lines around the change.`;
    case 'overlap':
      return `${head} it overlaps another edit of the same file; merge them into one.`;
    case 'not_whole_file':
      return `${head} it deletes the file but its removed lines are not the whole file.`;
    case 'invalid':
      return `${head} ${f.reason}.`;
  }
}

// The closest region with line numbers, or a note that nothing in the file resembles the lines.
function regionText(path: string, region: Region | null): string {
  if (region === null) return `No part of ${path} resembles them; look at the file's current content.`;
  const end = region.start + region.lines.length - 1;
  const width = String(end).length;
  const numbered = region.lines.map((l, k) => `${String(region.start + k).padStart(width)} | ${l}`).join('\n');
  return `The closest region of ${path} (lines ${region.start}-${end}) is:\n${numbered}`;
}

/**
 * The rejection the next prompt shows: the edits that could not be placed (when the host found
 * any) and git's message for the patch as written.
 */
export function rejectionText(failures: readonly EditFailure[], gitMessage: string | null): string {
  const parts: string[] = [];
  if (failures.length > 0) parts.push(renderFailures(failures));
  if (gitMessage !== null && gitMessage.trim() !== '')
    parts.push(`git apply --check refused the patch as written:\n${gitMessage.trim()}`);
  return parts.join('\n\n') || 'the edit could not be applied to the current files';
}
