// Titles made inert: a directive's first line as the title of its change (the pull request's and
// each commit's subject), and any title as text that can neither format, link nor mention.
import { sanitizeLine } from './sanitize.js';

/**
 * The title a directive (or plan) gives its change, uncut and inert (see inertTitle): its first line
 * with words, markdown markers, a plan's "Plan:" and a final period dropped, capitalised; '' when it
 * has none. The one place a title is made (the pull request's and each commit's subject).
 */
export function directiveTitle(directive: { text: string; kind?: 'plan' | undefined }): string {
  const line = sanitizeLine(directive.text.split('\n').find((l) => l.replace(/[#>*\-\s]/g, '') !== '') ?? '')
    .replace(/^[\s#>*-]+/, '')
    .replace(directive.kind === 'plan' ? /^plan:\s*/i : /^$/, '');
  return capitalise(inertTitle(line).replace(/[.\s]+$/, ''));
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

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
