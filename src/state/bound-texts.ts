// Keep a state file small whatever the run met: free texts in it are cut to a fixed size (the full
// texts are in the run's artifacts: test logs, answers, patches, events.ndjson). Pure.
import type { Iteration, RunState, TestRecord } from './run-state.js';

/** Most characters kept of a message (an error, a reason, git's words on a rejected patch). */
export const MAX_MESSAGE_CHARS = 4096;
/** Most characters kept of each test output excerpt (head and tail lines, already line-capped). */
export const MAX_EXCERPT_CHARS = 8192;

/** `text` cut to `max` characters with a note of what was cut; idempotent. */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = (n: number): string => `\n[... ${n} more characters; the run's artifacts hold the full text]`;
  const keep = Math.max(0, max - note(text.length).length);
  return `${text.slice(0, keep)}${note(text.length - keep)}`;
}

const msg = (t: string): string => boundText(t, MAX_MESSAGE_CHARS);

function boundTest(t: TestRecord | null): TestRecord | null {
  if (t === null) return null;
  // the tail of the output matters most: cut excerpts from the front
  const tail = (s: string): string => {
    if (s.length <= MAX_EXCERPT_CHARS) return s;
    const note = `[... ${s.length} characters, the first cut; the test log artifact holds them all]\n`;
    return `${note}${s.slice(-(MAX_EXCERPT_CHARS - note.length))}`;
  };
  return { ...t, command: msg(t.command), stdout_tail: tail(t.stdout_tail), stderr_tail: tail(t.stderr_tail) };
}

function boundIteration(it: Iteration): Iteration {
  return {
    ...it,
    summary: msg(it.summary),
    extraction: it.extraction && {
      ...it.extraction,
      ...(it.extraction.reason === undefined ? {} : { reason: msg(it.extraction.reason) }),
    },
    validation: it.validation && {
      ...it.validation,
      ...(it.validation.message === undefined ? {} : { message: msg(it.validation.message) }),
    },
    test: boundTest(it.test),
    ...(it.review ? { review: it.review.slice(0, 100).map(msg) } : {}),
  };
}

/** The state with every free text bounded (the directive is bounded when it is read). */
export function boundStateTexts(state: RunState): RunState {
  return {
    ...state,
    reason_detail: state.reason_detail === null ? null : msg(state.reason_detail),
    baseline: boundTest(state.baseline),
    iterations: state.iterations.map(boundIteration),
    errors: state.errors
      .slice(-100)
      .map((e) => ({ ...e, message: msg(e.message), ...(e.hint === undefined ? {} : { hint: msg(e.hint) }) })),
  };
}
