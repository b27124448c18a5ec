// Small pieces every page uses: badges, durations, counts, times.
import { formatDuration } from '../../text/markdown.js';
import type { SealStatus } from '../../state/run-inspect.js';
import type { RunState } from '../../state/run-state.js';
import { runVerdict, verdictRule } from '../../verdict/index.js';
import { html, type Html } from '../html.js';

/** A status or outcome as a coloured badge (the class is the value, which comes from a closed set). */
export function badge(kind: string, text: string = kind): Html {
  const cls = /^[a-z_]+$/.test(kind) ? kind : 'unknown';
  return html`<span class="badge b-${cls}">${text.replace(/_/g, ' ')}</span>`;
}

/**
 * A run's outcome as a badge: its word, the colour its rule gives (OUTCOME_RULES: green only for
 * stable), and why in its title.
 */
export function outcomeBadge(state: RunState): Html {
  const verdict = runVerdict(state);
  return html`<span class="badge o-${verdict.outcome} c-${verdictRule(verdict).colour}" title="${verdict.why}"
    >${verdict.outcome}</span
  >`;
}

/** Whether the state's seal verified, as a badge with the reason in its title. */
export function sealBadge(seal: SealStatus, problem: string | null): Html {
  if (seal === 'verified')
    return html`<span class="seal seal-ok" title="the state file's seal verified under your state key"
      >seal verified</span
    >`;
  const what = seal === 'unsealed' ? 'no seal' : 'seal does not match';
  return html`<span class="seal seal-bad" title="${problem ?? what}">NOT TRUSTED: ${what}</span>`;
}

/** A duration for people ("850 ms", "1.2 s", "3 min 05 s"). */
export function duration(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '' : formatDuration(ms);
}

/** A count with thousands separators (1,234,567). */
export function count(n: number | null | undefined): string {
  if (n === null || n === undefined) return '';
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** An ISO time as "2026-11-22 14:05:01 UTC", in a <time> element. */
export function when(iso: string): Html {
  const shown = iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  return html`<time datetime="${iso}">${shown}</time>`;
}

/** Bytes for people. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
