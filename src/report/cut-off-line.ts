// How a cut-off answer is described to people (runs show, PR_SUMMARY.md).
import type { Iteration } from '../state/run-state.js';

type CutOffRecord = NonNullable<NonNullable<Iteration['extraction']>['cut_off']>;

/** "cut off at the token limit after 512 tokens (in hunk @@ -5,8 +5,9 @@ of calc.py ...), nothing applied". */
export function cutOffLine(cut: CutOffRecord, tokens?: number): string {
  const head =
    cut.by === 'server'
      ? `cut off at the token limit${tokens === undefined ? '' : ` after ${tokens} tokens`}`
      : 'cut off: its last edit never ends';
  return `${head}${cut.where === '' ? '' : ` (${cut.where})`}, nothing applied`;
}
