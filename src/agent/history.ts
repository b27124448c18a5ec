// A trajectory's messages kept under a token budget: old observations are replaced by one line
// saying how many lines they held. Elision goes in blocks, each saving half the budget, and the
// blocks depend only on the observations themselves, so between two requests where one step was
// appended and no new block was needed the messages sent are the same bytes plus the new step (the
// server's cached prefix stays valid).
import type { ChatMessage } from '../llm/types.js';
import { omittedLines } from '../text/omitted-lines.js';

/** How to keep a history under budget. */
export interface ElideOptions {
  /** Tokens the messages may take (estimated). */
  budgetTokens: number;
  /** The newest observations never elided. */
  keepLast: number;
  /** Tokens of a string (the loop passes chars/4 or the server's counts). */
  estimate: (s: string) => number;
}

/**
 * Keep a trajectory's messages under a token budget by replacing old tool observations with
 * `(N lines of output omitted)`. Elides in steps (whole blocks of the oldest observations at once,
 * e.g. down to half the budget) so the prompt's prefix stays byte-identical between requests until
 * the next step; the system message, the task message and the last `keepLast` observations are never
 * elided. `estimate` counts tokens of a string (the loop passes chars/4 or the server's counts).
 *
 * Observations are the `tool` messages and the `user` messages after the first one (the task).
 * Pass the whole, un-elided history every time: the function keeps no state. `tokens` is the
 * estimate after elision: more than the budget when eliding every observation allowed was not enough.
 */
export function elideHistory(
  messages: readonly ChatMessage[],
  opts: ElideOptions,
): { messages: ChatMessage[]; elided: number; tokens: number } {
  const cost = (m: ChatMessage): number =>
    opts.estimate(m.content) +
    (m.role === 'assistant'
      ? (m.toolCalls ?? []).reduce((n, c) => n + opts.estimate(c.name) + opts.estimate(c.arguments), 0)
      : 0);
  let tokens = messages.reduce((n, m) => n + cost(m), 0);
  if (tokens <= opts.budgetTokens) return { messages: [...messages], elided: 0, tokens };
  const task = messages.findIndex((m) => m.role === 'user');
  const observations = messages.flatMap((m, i) => (m.role === 'tool' || (m.role === 'user' && i > task) ? [i] : []));
  const eligible = observations.slice(0, Math.max(0, observations.length - Math.max(0, opts.keepLast)));
  const markers = eligible.map((i) => omittedLines(lineCount(messages[i]!.content)));
  const savings = eligible.map((i, k) => Math.max(0, cost(messages[i]!) - opts.estimate(markers[k]!)));
  // the blocks: from where the last one ended, the fewest oldest observations saving half the budget
  const block = opts.budgetTokens / 2;
  let upTo = 0;
  while (tokens > opts.budgetTokens && upTo < eligible.length) {
    let saved = 0;
    while (upTo < eligible.length && saved < block) saved += savings[upTo++]!;
    tokens -= saved;
  }
  const out = [...messages];
  let elided = 0;
  for (let k = 0; k < upTo; k++) {
    if (savings[k]! <= 0) continue;
    const i = eligible[k]!;
    out[i] = { ...messages[i]!, content: markers[k]! };
    elided++;
  }
  return { messages: out, elided, tokens };
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
