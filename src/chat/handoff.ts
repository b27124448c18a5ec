// A conversation handed to the loop (pure): `/run`'s directive (what the person asked, what the
// model answered, the change so far) and `/branch`'s directive and answer (the change as a diff the
// loop applies as its one candidate). Both fit the directive's size limit.
import { findFencedBlocks } from '../patch/fences.js';
import { fenceFor } from '../text/markdown.js';
import { sanitizeLine, sanitizeText } from '../text/sanitize.js';
import { cutMiddle } from '../state/conversation-bounds.js';
import type { Conversation } from '../state/conversation.js';

/** Characters of one answer quoted in a directive. */
const ANSWER_CHARS = 1500;

/** The first line of the person's first message: the run's title (its PR title). */
export function conversationTitle(c: Conversation): string {
  const first = c.goal ?? c.exchanges[0]?.user ?? '';
  const line = first.split('\n').find((l) => l.trim() !== '') ?? '';
  return sanitizeLine(line).slice(0, 200) || `Work from hammer-box chat ${c.id}`;
}

/** The exchanges as markdown, newest kept first when they do not all fit `budget` characters. */
function exchangesText(c: Conversation, budget: number): string {
  const parts: string[] = [];
  let used = 0;
  let left = 0;
  for (let i = c.exchanges.length - 1; i >= 0; i--) {
    const e = c.exchanges[i]!;
    const answer =
      e.answer === '' ? `(no answer: ${e.end.reason})` : cutMiddle(sanitizeText(e.answer).trim(), ANSWER_CHARS);
    const text = `## The person\n\n${sanitizeText(e.user).trim()}\n\n## The model\n\n${answer}`;
    if (used + text.length > budget && parts.length > 0) {
      left = i + 1;
      break;
    }
    parts.unshift(cutMiddle(text, budget));
    used += text.length;
  }
  return `${left > 0 ? `[... the first ${left} exchanges are left out ...]\n\n` : ''}${parts.join('\n\n')}`;
}

/** A diff in a fence it cannot close, cut to `max` characters. */
function diffBlock(patch: string, max: number): string {
  const body = cutMiddle(patch, max);
  const fence = fenceFor(body);
  return `${fence}diff\n${body}${body.endsWith('\n') ? '' : '\n'}${fence}`;
}

/** `/run`: the directive for a run that goes on from the conversation. */
export function runDirective(c: Conversation, change: string, maxBytes: number): string {
  const head = `${conversationTitle(c)}\n\nThis directive comes from a conversation in hammer-box chat (${c.id}) about this repository at ${c.repo.base_commit.slice(0, 12)}. Carry out what the person asked; the tests decide.`;
  const changePart =
    change === ''
      ? ''
      : `\n\n# The change made in the conversation\n\nIt is not applied: the run starts from the base commit. Make it again (or a better one), then make the tests pass.\n\n${diffBlock(change, Math.floor(maxBytes / 2))}`;
  const budget = Math.max(1000, maxBytes - Buffer.byteLength(head) - Buffer.byteLength(changePart) - 200);
  const text = `${head}\n\n# The conversation\n\n${exchangesText(c, Math.floor(budget / 2))}${changePart}\n`;
  return fitBytes(text, maxBytes);
}

/** `/branch`: the directive recorded for the run that delivers the change, and the answer that carries it. */
export function branchHandoff(
  c: Conversation,
  patch: string,
  maxBytes: number,
  /** The title the person gave (`/branch <title>`); else the first line of their first message. */
  title = '',
): { directive: string; answer: string } {
  const head = `${sanitizeLine(title).slice(0, 200) || conversationTitle(c)}\n\nThe change below was made in a conversation in hammer-box chat (${c.id}) and delivered with /branch.`;
  const directive = fitBytes(
    `${head}\n\n# The conversation\n\n${exchangesText(c, Math.floor(maxBytes / 3))}\n`,
    maxBytes,
  );
  const words = proseOnly([...c.exchanges].reverse().find((e) => e.answer.trim() !== '')?.answer ?? '');
  const said = words === '' ? 'The change made in the conversation.' : cutMiddle(words, 3000);
  return { directive, answer: `${said}\n\n${diffBlock(patch, Number.MAX_SAFE_INTEGER)}\n` };
}

/**
 * The model's words without anything an answer parser would take for an edit: fenced blocks,
 * diff and search/replace lines. The change itself travels in its own block.
 */
export function proseOnly(text: string): string {
  const lines = sanitizeText(text).split('\n');
  const drop = new Set<number>();
  for (const b of findFencedBlocks(lines.join('\n'))) for (let i = b.start; i < b.end; i++) drop.add(i);
  return lines
    .filter((l, i) => !drop.has(i) && !/^(<{7}|={7}|>{7}|diff --git |--- |\+\+\+ |@@ |NO_CHANGES)/.test(l))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** `text` within `maxBytes` of UTF-8 (cut at the end, on a character). */
function fitBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let cut = text.slice(0, maxBytes);
  while (Buffer.byteLength(cut) > maxBytes - 40) cut = cut.slice(0, -64);
  return `${cut}\n[... cut to fit the directive's size ...]\n`;
}
