// Whether a directive asks for a fix (a bug, a failure, something broken), read from its words.

const ASKS_FOR_FIX =
  /\b(fix(es|ed|ing)?|bugs?|broken|breaks?|fail(s|ed|ing|ure)?|errors?|crash(es|ed)?|wrong|regression|incorrect(ly)?)\b/i;

/** True when the directive reads as a request to fix something. */
export function asksForFix(directive: string): boolean {
  return ASKS_FOR_FIX.test(directive);
}
