// What each commit of a run says: the directive's (or plan's) title as its subject, the model's
// words about the change (else what the patch changed) as its body, the run and model as trailers.
import { commitMessage, type CommitText } from '../git/index.js';
import { summarizePatch } from '../patch/patch-summary.js';
import { directiveTitle } from '../text/title.js';
import type { PatchFile, RunState } from '../state/run-state.js';

/** The text of iteration n's commit, its patch changing `files`, with the model's `explanation` (null: none). */
export function iterationCommit(
  state: Pick<RunState, 'run_id' | 'directive' | 'model'>,
  n: number,
  files: readonly PatchFile[],
  explanation: string | null,
): CommitText {
  const changed = capitalise(summarizePatch(files));
  const title = directiveTitle(state.directive);
  return {
    subject: title === '' ? changed : title,
    body: explanation === null ? (title === '' ? '' : `${changed}.`) : inertProse(explanation),
    trailers: [
      ['Hammer-Box-Run', state.run_id],
      ['Hammer-Box-Model', `${state.model.provider}:${state.model.name}`],
      ['Hammer-Box-Iteration', String(n)],
    ],
  };
}

/** The whole message of iteration n's commit (see iterationCommit). */
export function iterationCommitMessage(...args: Parameters<typeof iterationCommit>): string {
  return commitMessage(iterationCommit(...args));
}

/**
 * The model's words made inert for a commit message, where a forge acts on them once the commit is
 * merged: an issue reference (`#12`, `GH-12`, `owner/repo#12`, so "fixes #12" closes nothing) and a
 * mention (`@octocat`) get a space that keeps them readable and out of reach.
 */
export function inertProse(text: string): string {
  return text
    .replace(/#(?=\d)/g, '# ')
    .replace(/\bGH-(?=\d)/gi, (m) => `${m.slice(0, 2)} `)
    .replace(/(^|[^\w.@])@(?=[A-Za-z0-9])/g, '$1@ ');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
