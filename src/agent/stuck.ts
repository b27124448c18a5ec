// Is the trajectory going round in circles? A pure verdict over the steps so far: the first time a
// pattern shows, a nudge (a message for the model); when a pattern already nudged shows again, stuck.

/** One step as the detector sees it. action/observation: normalised keys (the loop passes e.g. hashes). */
export interface StepKey {
  action: string;
  observation: string;
  /** The action failed (a non-zero exit, an editor error, a refusal). */
  failed: boolean;
  /** The turn held no usable call (parseTurn said malformed); action/observation are then ignored. */
  malformed?: boolean;
}

/** The patterns, in the order they are looked for (the first that shows decides). */
export type StuckPattern = 'repeat' | 'failing_action' | 'alternating' | 'malformed';

/** The verdict after the newest step. */
export type StuckVerdict =
  { kind: 'ok' } | { kind: 'nudge'; pattern: StuckPattern; message: string } | { kind: 'stuck'; pattern: StuckPattern };

/** The message each pattern's nudge sends the model. */
export const NUDGES: Readonly<Record<StuckPattern, string>> = {
  malformed:
    'Your last two answers held no tool call that could be used. Answer with exactly one call in the shape the tools section shows, e.g. <function=bash><parameter=command>ls</parameter></function>.',
  repeat:
    'You have run the same action three times in a row and got the same result each time: running it again will not change anything. Try something different (read the error, view the code around it, or change the code).',
  failing_action:
    'The same action has failed three times in a row. Read its error output, then change the command or the code before running it again.',
  alternating:
    'You are alternating between the same two actions without making progress. Step back: what do you know now, and what single different step would tell you something new?',
};

/** Steps that make each pattern. */
const REPEAT = 3;
const FAILING = 3;
const ALTERNATING = 6;
const MALFORMED = 2;

/** Pure: the verdict after the newest step. One nudge per pattern occurrence, then stuck. Patterns: the same action and observation repeated (3x), the same failing action 3 times, two actions alternating (A B A B A B). */
export function judgeStuck(steps: readonly StepKey[], nudged: ReadonlySet<StuckPattern>): StuckVerdict {
  const pattern = patternAtEnd(steps);
  if (pattern === null) return { kind: 'ok' };
  return nudged.has(pattern) ? { kind: 'stuck', pattern } : { kind: 'nudge', pattern, message: NUDGES[pattern] };
}

// The pattern the last steps make, if any.
function patternAtEnd(steps: readonly StepKey[]): StuckPattern | null {
  const last = (n: number): readonly StepKey[] | null => (steps.length >= n ? steps.slice(-n) : null);
  const malformed = last(MALFORMED);
  if (malformed?.every((s) => s.malformed === true)) return 'malformed';
  if (steps.at(-1)?.malformed === true) return null;
  const used = (s: StepKey): boolean => s.malformed !== true;
  const repeat = last(REPEAT);
  if (repeat?.every((s) => used(s) && s.action === repeat[0]!.action && s.observation === repeat[0]!.observation)) {
    return 'repeat';
  }
  const failing = last(FAILING);
  if (failing?.every((s) => used(s) && s.failed && s.action === failing[0]!.action)) return 'failing_action';
  const alt = last(ALTERNATING);
  if (alt !== null && alt.every(used) && alt[0]!.action !== alt[1]!.action) {
    if (alt.every((s, i) => s.action === alt[i % 2]!.action)) return 'alternating';
  }
  return null;
}
