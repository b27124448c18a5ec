// `hammer-box pr <run_id>`: push the run's branch and open its pull request (see api/pr.ts).
import { openPullRequest, type PullRequestOptions, type PullRequestOutcome } from '../../api/pr.js';
import { runRefOf } from '../../api/run-ref.js';
import { resolveRun } from '../../api/runs.js';
import { HammerError } from '../../errors.js';
import type { ForgeKind } from '../../forge/forge.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { EXIT } from '../exit-codes.js';
import { interruptSignal } from '../interrupt.js';
import { renderError } from '../render-error.js';
import { printJson } from '../terminal-json.js';

/** The flags `pr` and `run --pr` share. */
export interface PrFlags {
  remote?: string;
  forge?: ForgeKind;
  forgeRepo?: string;
  prBody?: string;
}

/** The options of openPullRequest those flags give. */
export function prOptions(f: PrFlags & { base?: string }): Omit<PullRequestOptions, 'repo' | 'runId'> {
  return {
    ...(f.remote ? { remote: f.remote } : {}),
    ...(f.forge ? { forge: f.forge } : {}),
    ...(f.forgeRepo ? { forgeRepo: f.forgeRepo } : {}),
    ...(f.base ? { base: f.base } : {}),
    ...(f.prBody ? { bodyFile: f.prBody } : {}),
  };
}

/** What `pr` prints on stdout (sanitised: titles, URLs and branch names come from the repository or the forge). */
export function renderPullRequest(o: PullRequestOutcome): string[] {
  const lines: string[] = [];
  if (o.push !== null) {
    const pushed = { created: 'a new branch', updated: 'updated', 'up-to-date': 'already up to date' }[o.push];
    lines.push(
      `pushed     ${sanitizeLine(o.branch)} to ${sanitizeLine(o.remote)} (${sanitizeLine(o.pushed_to)}): ${pushed}`,
    );
  }
  if (o.pull_request) {
    const kind = o.forge === 'gitlab' ? 'merge request' : 'pull request';
    const how = o.pull_request.existing
      ? ` (updated: it was open already${o.push === 'up-to-date' ? ' and had these commits' : ''})`
      : o.draft
        ? ' (draft: the run did not end stable)'
        : '';
    lines.push(`${kind.padEnd(10)} ${sanitizeLine(o.pull_request.url)}${how}`);
    return lines;
  }
  if (o.push === null) lines.push(`not pushed ${sanitizeLine(o.branch)} (nothing left this machine)`);
  if (o.commands.length > 0) lines.push('to push and open it:', ...o.commands.map((c) => `  ${sanitizeLine(c)}`));
  return lines;
}

/** The error a run's branch without a pull request ends with: FORGE_UNAVAILABLE (exit 3). */
export function notOpened(o: PullRequestOutcome): HammerError | null {
  if (o.pull_request || o.reason === null) return null;
  return new HammerError('FORGE_UNAVAILABLE', o.reason, { ...(o.hint ? { hint: o.hint } : {}) });
}

export default async function prCommand(
  f: PrFlags & { runId?: string; last?: boolean; repo: string; base?: string; json?: boolean },
): Promise<number> {
  const runId = await resolveRun({ repo: f.repo, ref: runRefOf(f.runId, f.last), env: process.env });
  const outcome = await openPullRequest({
    repo: f.repo,
    runId,
    ...prOptions(f),
    env: process.env,
    signal: interruptSignal(),
  });
  const failed = notOpened(outcome);
  if (f.json) printJson(outcome);
  else process.stdout.write(`${renderPullRequest(outcome).join('\n')}\n`);
  if (!failed) return EXIT.stable;
  const { text, exitCode } = renderError(failed);
  process.stderr.write(`${text}\n`);
  return exitCode;
}
