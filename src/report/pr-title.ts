// The pull request's title: what the change does, in the words of the directive that asked for it.
import { appliedCount, finishedIterations, runVerdict, verdictRule } from '../verdict/index.js';
import { summarizePatch } from '../patch/patch-summary.js';
import type { PatchFile, RunState } from '../state/run-state.js';
import { sanitizeLine } from './sanitize.js';

/** Longest title, in characters (GitHub shows about this much in lists). */
export const TITLE_MAX = 72;

/**
 * The directive's first line (markdown markers and a final period dropped, cut at a word), else what
 * the patches changed; "WIP: " in front when patches were applied and the outcome opens no ready
 * pull request (anything but stable: see OUTCOME_RULES).
 */
export function prTitle(state: RunState): string {
  const line = sanitizeLine(state.directive.text.split('\n').find((l) => l.replace(/[#>*\-\s]/g, '') !== '') ?? '')
    .replace(/^[\s#>*-]+/, '')
    .replace(state.directive.kind === 'plan' ? /^plan:\s*/i : /^$/, '')
    .replace(/[.\s]+$/, '');
  const base = line !== '' ? capitalise(cut(line, TITLE_MAX - 5)) : summarizePatch(changedFiles(state));
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

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
