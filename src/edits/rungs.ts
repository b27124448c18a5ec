// The apply ladder's rungs, the git flags each may use, and a candidate patch for one rung.

/** The rungs of the apply ladder, in the order they are tried. */
export const RUNGS = ['as_is', 'recount', 'whitespace', 'relocated', 'search_replace'] as const;

/** One rung: how a patch was made to apply. */
export type Rung = (typeof RUNGS)[number];

/** The only `git apply` flags a candidate may carry (the runner and the workbench whitelist them too). */
export const APPLY_FLAGS = ['--recount', '--ignore-whitespace'] as const;

/** One whitelisted `git apply` flag. */
export type ApplyFlag = (typeof APPLY_FLAGS)[number];

/** A patch to try at one rung: git checks it with these flags and, if it passes, applies it with them. */
export interface Candidate {
  rung: Rung;
  flags: ApplyFlag[];
  /** The unified diff, vetted by validateDiff (paths, modes, binary, size, counts). */
  patch: string;
}

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
