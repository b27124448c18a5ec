// The pull request's title: what the change does, in the words of the directive that asked for it.
import { appliedCount, finishedIterations } from '../loop/stop-conditions.js';
import { summarizePatch } from '../patch/patch-summary.js';
import type { PatchFile, RunState } from '../state/run-state.js';
import { sanitizeLine } from './sanitize.js';

/** Longest title, in characters: GitHub's limit for a pull request's title. */
export const TITLE_MAX = 256;

/**
 * The title a directive (or plan) gives its change, uncut: its first line with words, markdown
 * markers, a plan's "Plan:" and a final period dropped, capitalised; '' when it has none. The one
 * place a title is made (the pull request's and each commit's subject).
 */
export function directiveTitle(directive: Pick<RunState['directive'], 'text' | 'kind'>): string {
  const line = sanitizeLine(directive.text.split('\n').find((l) => l.replace(/[#>*\-\s]/g, '') !== '') ?? '')
    .replace(/^[\s#>*-]+/, '')
    .replace(directive.kind === 'plan' ? /^plan:\s*/i : /^$/, '')
    .replace(/[.\s]+$/, '');
  return capitalise(line);
}

/**
 * The directive's title (cut at a word to GitHub's limit), else what the patches changed; "WIP: " in
 * front when the tests do not pass.
 */
export function prTitle(state: RunState): string {
  const line = directiveTitle(state.directive);
  const base = line !== '' ? cut(line, TITLE_MAX - 5) : summarizePatch(changedFiles(state));
  return state.status === 'stable' || appliedCount(state) === 0 ? base : `WIP: ${base}`;
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
