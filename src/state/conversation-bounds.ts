// A conversation kept under its size bound (pure): each message cut to its cap, and when the whole
// is still too large, the oldest tool results and recorded observations replaced by a line saying
// how many lines they held, as the history sent to the model is elided.
import { omittedLines } from '../text/omitted-lines.js';
import {
  MAX_EXCHANGE_STEPS,
  MAX_EXCHANGES,
  MAX_HANDOFFS,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGES,
  type Conversation,
  type StoredMessage,
} from './conversation.js';

/** `text` cut to `max` characters in the middle, saying how much was left out; idempotent. */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 80) / 2);
  return `${text.slice(0, half)}\n[... ${text.length - 2 * half} characters omitted ...]\n${text.slice(-half)}`;
}

/** The conversation with every list and text within its cap, and its JSON under `maxBytes` as far as eliding allows. */
export function boundConversation(c: Conversation, maxBytes: number): Conversation {
  const messages: StoredMessage[] = c.messages
    .slice(-MAX_MESSAGES)
    .map((m) =>
      m.content.length > MAX_MESSAGE_CHARS ? { ...m, content: cutMiddle(m.content, MAX_MESSAGE_CHARS) } : m,
    );
  // the system message stays first even when the oldest messages go
  if (c.messages.length > MAX_MESSAGES && c.messages[0]?.role === 'system') messages[0] = c.messages[0];
  let out: Conversation = {
    ...c,
    messages,
    exchanges: c.exchanges
      .slice(-MAX_EXCHANGES)
      .map((e) => (e.steps.length > MAX_EXCHANGE_STEPS ? { ...e, steps: e.steps.slice(0, MAX_EXCHANGE_STEPS) } : e)),
    handoffs: c.handoffs.slice(-MAX_HANDOFFS),
  };
  // JSON's escapes make the file larger than the text: leave room for them
  const budget = Math.floor(maxBytes * 0.8);
  let size = JSON.stringify(out).length;
  if (size <= budget) return out;
  const elided = (text: string): string => omittedLines(text.split('\n').length);
  // the oldest tool results first, keeping the newest eight
  const tools = out.messages.flatMap((m, i) => (m.role === 'tool' ? [i] : [])).slice(0, -8);
  const msgs = [...out.messages];
  for (const i of tools) {
    if (size <= budget) break;
    const m = msgs[i]!;
    const short = elided(m.content);
    if (short.length >= m.content.length) continue;
    size -= m.content.length - short.length;
    msgs[i] = { ...m, content: short };
  }
  out = { ...out, messages: msgs };
  // then the observations recorded with the oldest exchanges
  const exchanges = [...out.exchanges];
  for (let e = 0; e < exchanges.length - 1 && size > budget; e++) {
    const ex = exchanges[e]!;
    const steps = ex.steps.map((s) => {
      const short = elided(s.observation);
      if (short.length >= s.observation.length) return s;
      size -= s.observation.length - short.length;
      return { ...s, observation: short };
    });
    exchanges[e] = { ...ex, steps };
  }
  return { ...out, exchanges };
}
