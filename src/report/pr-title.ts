// The pull request's title: what the change does, in the words of the directive that asked for it.
import { appliedCount, finishedIterations, runVerdict, verdictRule } from '../verdict/index.js';
import { summarizePatch } from '../patch/patch-summary.js';
import type { PatchFile, RunState } from '../state/run-state.js';
import { sanitizeLine } from './sanitize.js';

/** Longest title, in characters: GitHub's limit for a pull request's title. */
export const TITLE_MAX = 256;

/**
 * The title a directive (or plan) gives its change, uncut and inert (see inertTitle): its first line
 * with words, markdown markers, a plan's "Plan:" and a final period dropped, capitalised; '' when it
 * has none. The one place a title is made (the pull request's and each commit's subject).
 */
export function directiveTitle(directive: Pick<RunState['directive'], 'text' | 'kind'>): string {
  const line = sanitizeLine(directive.text.split('\n').find((l) => l.replace(/[#>*\-\s]/g, '') !== '') ?? '')
    .replace(/^[\s#>*-]+/, '')
    .replace(directive.kind === 'plan' ? /^plan:\s*/i : /^$/, '');
  return capitalise(inertTitle(line).replace(/[.\s]+$/, ''));
}

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

/**
 * A title (from a directive, a plan, a model) as inert text, the same in plain text (a PR title, a
 * commit subject, a `gh`/`glab` argument) and in markdown (PR_SUMMARY.md's heading): one sanitised
 * line where `<` and `>` become ‹ ›; `@` before a name, `#` before a number or starting a word, `!`
 * and `&` before a number, and `&` starting an entity become their fullwidth forms; a URL's `://`
 * becomes `[:]//` and `www.` `www[.]`; `](` is split and `GH-1` takes a non-breaking hyphen. No HTML,
 * mention, issue reference (so no closing keyword) or link survives; ordinary titles are unchanged.
 */
export function inertTitle(text: string): string {
  return sanitizeLine(text)
    .replace(/</g, '\u2039')
    .replace(/>/g, '\u203a')
    .replace(/@(?=[\w-])/g, '\uff20')
    .replace(/#(?=\d)|(?<!\w)#(?=[A-Za-z])/g, '\uff03')
    .replace(/&(?=#?\w+;)|(?<!\w)&(?=\d)/g, '\uff06')
    .replace(/(?<!\w)!(?=\d)/g, '\uff01')
    .replace(/\b(GH)-(?=\d)/gi, '$1\u2011')
    .replace(/([a-z][a-z0-9+.-]*):\/\//gi, '$1[:]//')
    .replace(/\b(www)\./gi, '$1[.]')
    .replace(/\]\(/g, '] (');
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
