// The apply ladder's rungs, as a run records them (src/edits/ tries them), with their names for people.

/** The rungs of the apply ladder, in the order they are tried. */
export const RUNGS = ['as_is', 'recount', 'whitespace', 'relocated', 'search_replace'] as const;

/** One rung: how a patch was made to apply. */
export type Rung = (typeof RUNGS)[number];

const LABELS: Record<Rung, string> = {
  as_is: 'as is',
  recount: 'hunk counts recounted (--recount)',
  whitespace: 'whitespace-tolerant (--ignore-whitespace)',
  relocated: 'hunks relocated by their context',
  search_replace: 'search/replace',
};

/** A short human description of a rung, for summaries and PR_SUMMARY.md. */
export function rungLabel(rung: Rung): string {
  return LABELS[rung];
}

/** The rung's 1-based position in the ladder. */
export function rungNumber(rung: Rung): number {
  return RUNGS.indexOf(rung) + 1;
}
