// The pull request's title: what the change does, in the words of the directive that asked for it.
import { appliedCount, finishedIterations, runVerdict, verdictRule } from '../verdict/index.js';
import { summarizePatch } from '../patch/patch-summary.js';
import type { PatchFile, RunState } from '../state/run-state.js';
import { directiveTitle, inertTitle } from '../text/title.js';

/** Longest title, in characters: GitHub's limit for a pull request's title. */
export const TITLE_MAX = 256;

/**
 * The directive's title (cut at a word to GitHub's limit), else what the patches changed; "WIP: " in
 * front when patches were applied and the outcome opens no ready pull request (anything but stable:
 * see OUTCOME_RULES).
 */
export function prTitle(state: RunState): string {
  const line = directiveTitle(state.directive);
  const base = line !== '' ? cut(line, TITLE_MAX - 5) : inertTitle(summarizePatch(changedFiles(state)));
  return verdictRule(runVerdict(state)).ready || appliedCount(state) === 0 ? base : `WIP: ${base}`;
}

function changedFiles(state: RunState): PatchFile[] {
  const files = new Map<string, PatchFile>();
  for (const it of finishedIterations(state))
    if (it.outcome === 'applied') for (const f of it.patch?.files ?? []) files.set(f.path, f);
  return [...files.values()];
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf(' ', max - 1);
  return `${text.slice(0, at > max / 2 ? at : max - 1).trimEnd()}…`;
}
