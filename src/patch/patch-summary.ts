// A one-line summary of a patch, derived from the files it touches (deterministic, unlike the
// model's prose); src/git's commitMessage turns it into the commit message. File names are inert
// (see inertName): a name cannot mention anyone, reference or close an issue, or carry HTML.
import { inertName, sanitizeLine, truncateText } from '../text/sanitize.js';
import type { PatchFile } from '../state/run-state.js';

const VERB: Record<PatchFile['status'], string> = {
  added: 'add',
  deleted: 'delete',
  modified: 'update',
  renamed: 'rename',
  copied: 'copy',
};

/** A one-line summary of a patch: "update src/calc.py", "update 3 files: a.py, b.py, c.py". */
export function summarizePatch(files: readonly PatchFile[]): string {
  if (files.length === 0) return 'no file changes';
  if (files.length === 1) {
    const f = files[0]!;
    const what =
      f.status === 'renamed' || f.status === 'copied'
        ? `${inertName(f.from ?? '?')} to ${inertName(f.path)}`
        : inertName(f.path);
    return truncateText(sanitizeLine(`${VERB[f.status]} ${what}`), 60);
  }
  const verbs = new Set(files.map((f) => VERB[f.status]));
  const verb = verbs.size === 1 ? [...verbs][0]! : 'change';
  return truncateText(
    sanitizeLine(`${verb} ${files.length} files: ${files.map((f) => inertName(f.path)).join(', ')}`),
    60,
  );
}
