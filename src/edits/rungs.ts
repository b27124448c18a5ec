// The git flags each rung of the apply ladder may use, and a candidate patch for one rung (the rungs
// themselves are src/state/rungs.ts: a run records them).
import type { Rung } from '../state/rungs.js';

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
