// Two batch reports side by side: which tasks both solved, only one, neither (the paired table),
// the exact McNemar test on the tasks only one solved, and pass@k of each. Pure.
import { passAtKs, type PassAt } from './pass-at-k.js';
import type { Report, ReportStatus } from './report-schema.js';

/** The paired comparison of reports A and B. */
export interface Comparison {
  /** Tasks with a verdict in both (finished, and neither infra_error nor model_error): ids per cell. */
  both: string[];
  onlyA: string[];
  onlyB: string[];
  neither: string[];
  /** Tasks left out: in one report only, or without a verdict in one (pending, running, infra_error, model_error). */
  left: { id: string; a: ReportStatus | null; b: ReportStatus | null }[];
  /** Two-sided exact McNemar p-value on onlyA vs onlyB (1 when there is no discordant task). */
  pValue: number;
  passA: PassAt[];
  passB: PassAt[];
  /** pass@k over the paired tasks only. */
  pairedPassA: PassAt[];
  pairedPassB: PassAt[];
}

const UNSCORED: ReadonlySet<ReportStatus> = new Set(['pending', 'running', 'infra_error', 'model_error']);

/** Compare two reports task by task (by id). */
export function compareReports(a: Report, b: Report): Comparison {
  const byIdB = new Map(b.tasks.map((t) => [t.id, t]));
  const idsA = new Set(a.tasks.map((t) => t.id));
  const out: Comparison = {
    both: [],
    onlyA: [],
    onlyB: [],
    neither: [],
    left: [],
    pValue: 1,
    passA: a.pass_at_k,
    passB: b.pass_at_k,
    pairedPassA: [],
    pairedPassB: [],
  };
  const pairedA: { n: number; c: number }[] = [];
  const pairedB: { n: number; c: number }[] = [];
  for (const ta of a.tasks) {
    const tb = byIdB.get(ta.id);
    if (!tb || UNSCORED.has(ta.status) || UNSCORED.has(tb.status)) {
      out.left.push({ id: ta.id, a: ta.status, b: tb?.status ?? null });
      continue;
    }
    const sa = ta.status === 'stable';
    const sb = tb.status === 'stable';
    (sa ? (sb ? out.both : out.onlyA) : sb ? out.onlyB : out.neither).push(ta.id);
    if (ta.samples > 0 && tb.samples > 0) {
      pairedA.push({ n: ta.samples, c: ta.solved });
      pairedB.push({ n: tb.samples, c: tb.solved });
    }
  }
  for (const tb of b.tasks) if (!idsA.has(tb.id)) out.left.push({ id: tb.id, a: null, b: tb.status });
  out.pValue = mcnemarExact(out.onlyA.length, out.onlyB.length);
  out.pairedPassA = passAtKs(pairedA);
  out.pairedPassB = passAtKs(pairedB);
  return out;
}

/**
 * The two-sided exact McNemar test: under "A and B are equally good", each of the b + c tasks only
 * one of them solved is a fair coin; the p-value is twice the smaller tail of Binomial(b + c, 1/2).
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  // P(X <= k) for X ~ Binomial(n, 1/2), summed in log space so large n stays finite
  let logTerm = -n * Math.LN2; // log C(n, 0) / 2^n
  let tail = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logTerm);
  }
  return Math.min(1, 2 * tail);
}
