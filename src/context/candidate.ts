// One file the context may show, as the plan sees it (pure): what its leads and the call chain make it
// worth, why it is shown, and what in it to show when it is too big to show whole.
import type { SourceAnalysis } from '../syntax/index.js';
import type { FileChain } from './chain-leads.js';
import { scoreFile, type Lead } from './file-score.js';
import type { ContextNode } from './follow-imports.js';
import { WEIGHT } from './leads.js';
import { quotedLines } from './lines-of.js';
import type { Candidate } from './plan.js';
import { isTestPath } from './source-files.js';
import type { ContextText, LineRange } from './types.js';

/** What the build learned that decides what a file is worth. */
export interface CandidateLeads {
  texts: ReadonlyMap<string, ContextText>;
  analyses: ReadonlyMap<string, SourceAnalysis>;
  leads: ReadonlyMap<string, Lead>;
  /** How many files define each name. */
  defined: ReadonlyMap<string, number>;
  /** Strong leads by their spelling without case and separators. */
  variants: ReadonlyMap<string, Lead>;
  chains: ReadonlyMap<string, FileChain>;
  changed: ReadonlyMap<string, readonly LineRange[]>;
  /** Names the directive quotes. */
  quoted: readonly string[];
}

/** Names in focus per file at most. */
const MAX_FOCUS_NAMES = 6;

/** A node of the build as a candidate of the plan. */
export function toCandidate(n: ContextNode, k: CandidateLeads): Candidate {
  const t = k.texts.get(n.path);
  const analysis = k.analyses.get(n.path) ?? null;
  const test = isTestPath(n.path);
  const scored = scoreFile(analysis, k.leads, k.defined, k.variants);
  const chain = test ? undefined : k.chains.get(n.path);
  const chainScore = chain?.score ?? 0;
  const leadWeight = n.lead?.weight ?? 0;
  let detail = n.detail;
  if (n.distance > 0 && chain !== undefined && chainScore > scored.score && chainScore >= leadWeight)
    detail = chain.detail;
  else if (n.distance > 0 && scored.top !== null && scored.score >= leadWeight)
    detail = `defines ${scored.top.name}, ${scored.top.lead.why}`;
  else if (n.distance > 0 && n.lead !== null) detail = n.lead.detail;
  // the names to show: what the leads name and what is on the chain, strongest first
  const named = [
    ...[...scored.values].map(([name, value]) => ({ name, value, order: -1 })),
    ...(chain?.names ?? []).map((c, order) => ({ name: c.name, value: c.weight, order })),
  ].sort((a, b) => b.value - a.value || a.order - b.order);
  return {
    path: n.path,
    reason: n.reason,
    detail,
    distance: n.distance,
    order: n.order,
    text: t?.text ?? null,
    truncated: t?.truncated ?? false,
    analysis,
    // a file only a callee's callee leads to is outlined, unless the failing code imports it
    relevant:
      n.distance === 0 ||
      (n.imported && n.distance === 1) ||
      scored.score >= WEIGHT.callee ||
      chainScore > 0 ||
      n.lead !== null,
    score: Math.max(scored.score, leadWeight, chainScore),
    chainOrder: chain?.order ?? Number.POSITIVE_INFINITY,
    onlyChain: n.distance > 0 && chainScore > 0 && chainScore > scored.score && n.lead === null,
    targets: {
      lines: n.lines,
      names: [...new Set(named.map((x) => x.name))],
      ranges: n.ranges,
      callersOf: scored.variants,
      windows: test ? [] : quotedLines(analysis, k.quoted),
    },
    focusNames: test
      ? []
      : scored.names.filter((name) => (k.leads.get(name)?.weight ?? 0) >= WEIGHT.used).slice(0, MAX_FOCUS_NAMES),
    changedRanges: k.changed.get(n.path) ?? [],
    changed: k.changed.has(n.path),
    test,
  };
}
