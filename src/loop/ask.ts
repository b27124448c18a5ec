// Letting the model ask: an answer that holds no edits and no NO_CHANGES but requests to see files,
// line ranges or searches is answered from the workbench head (the tree the sandbox has too, read
// only), and the model is asked again, up to `loop.max_asks` times an iteration. Requests come in the
// answer's text or as provider tool calls; tool calls are answered with one tool message each.
import {
  answerRequests,
  parseAskRequests,
  toolCallRequests,
  type AskAnswer,
  type AskRequest,
  type ContextSource,
} from '../context/index.js';
import type { ContextEntry } from '../context/index.js';
import { parseAnswer, type EditFormat } from '../edits/index.js';
import type { ChatMessage, ToolCall } from '../llm/index.js';
import { fenceFor } from '../text/markdown.js';
import { sanitizeText } from '../text/sanitize.js';
import type { AskItem, ShownItem } from '../state/run-state.js';

/** How answers are read (as in extract). */
export interface AskReadOptions {
  format: EditFormat;
  strict: boolean;
}

/** The requests an answer makes, when it makes no edits and does not say NO_CHANGES (else none). */
export function requestsIn(answer: string, options: AskReadOptions): AskRequest[] {
  const requests = parseAskRequests(answer);
  if (requests.length === 0) return [];
  return makesNoEdits(answer, options) ? requests : [];
}

/** What an answer asks: its tool calls (one request each, answered with tool messages), else its text's requests. */
export function askedIn(
  answer: { text: string; toolCalls?: readonly ToolCall[] },
  options: AskReadOptions,
): { requests: AskRequest[]; toolCalls: readonly ToolCall[] | null } {
  const calls = answer.toolCalls ?? [];
  if (calls.length > 0 && makesNoEdits(answer.text, options)) {
    return { requests: toolCallRequests(calls), toolCalls: calls };
  }
  return { requests: requestsIn(answer.text, options), toolCalls: null };
}

function makesNoEdits(answer: string, options: AskReadOptions): boolean {
  return parseAnswer(answer, { format: options.format, strict: options.strict }).kind === 'unusable';
}

/** The conversation's next messages after an answer that asked: the answer, then the reply (a tool message per call). */
export function askMessages(
  answer: string,
  toolCalls: readonly ToolCall[] | null,
  answers: readonly AskAnswer[],
  reply: string,
  asked: { k: number; max: number },
): ChatMessage[] {
  if (toolCalls === null) {
    return [
      { role: 'assistant', content: answer },
      { role: 'user', content: reply },
    ];
  }
  const tools: ChatMessage[] = toolCalls.map((call, i) => {
    const a = answers[i];
    const last = i === toolCalls.length - 1;
    const content = `${a === undefined ? 'not answered' : section(a)}${last ? `\n\n${nextStep(asked)}` : ''}\n`;
    return { role: 'tool', content, toolCallId: call.id, toolName: call.name };
  });
  return [{ role: 'assistant', content: answer, toolCalls }, ...tools];
}

/** Answer requests from a tree and render the reply the model gets as the next user message. */
export async function replyTo(
  requests: readonly AskRequest[],
  tree: readonly ContextEntry[],
  source: ContextSource,
  asked: { k: number; max: number },
): Promise<{ answers: AskAnswer[]; reply: string }> {
  const answers = await answerRequests(requests, tree, source);
  return { answers, reply: renderReply(answers, asked) };
}

/** The reply: each request's result as a section, then what to do next. */
export function renderReply(answers: readonly AskAnswer[], asked: { k: number; max: number }): string {
  const parts: string[] = [`# What you asked to see (request ${asked.k} of at most ${asked.max} this iteration)`];
  for (const a of answers) parts.push(section(a));
  parts.push(nextStep(asked));
  return `${parts.join('\n\n')}\n`;
}

/** One request's result: a heading naming it, then what was shown or why nothing was. */
function section(a: AskAnswer): string {
  const head = `## ${oneLine(target(a))}`;
  if (a.text === '') return `${head}\n\n${oneLine(a.note)}.`;
  const body = sanitizeText(a.text);
  const where =
    a.request.kind === 'read'
      ? `[lines ${a.start}-${a.end} of ${a.totalLines}]`
      : `[${a.hits} matching ${a.hits === 1 ? 'line' : 'lines'}]`;
  const note = a.note === '' ? '' : `\n[... ${oneLine(a.note)} ...]`;
  return `${head}\n\n${block(`${where}\n${body}${note}`)}`;
}

function nextStep(asked: { k: number; max: number }): string {
  return asked.k < asked.max
    ? 'Now answer with the change (a diff or SEARCH/REPLACE blocks), NO_CHANGES, or another request.'
    : 'That was the last request this iteration: now answer with the change or NO_CHANGES.';
}

/** The state's record of each request. */
export function askItems(answers: readonly AskAnswer[]): AskItem[] {
  return answers.map((a) => ({
    kind: a.request.kind,
    target:
      a.request.kind === 'read'
        ? (a.path ?? a.request.path)
        : a.request.kind === 'search'
          ? a.request.query
          : a.request.tool.slice(0, 200),
    ...(a.request.call === undefined ? {} : { via: 'tool_call' as const }),
    outcome: a.outcome,
    ...(a.start === null || a.end === null ? {} : { lines: `${a.start}-${a.end}` }),
    ...(a.hits === null ? {} : { hits: a.hits }),
    chars: a.text.length,
  }));
}

/** The files a reply showed, as the context record's items with reason `asked`. */
export function askedShown(answers: readonly AskAnswer[]): ShownItem[] {
  return answers.flatMap((a) =>
    a.request.kind === 'read' && a.path !== null && a.text !== '' && a.start !== null && a.end !== null
      ? [
          {
            path: a.path,
            reason: 'asked' as const,
            detail: 'the model asked for it',
            shown: a.start === 1 && a.end === a.totalLines ? ('whole' as const) : ('regions' as const),
            ...(a.start === 1 && a.end === a.totalLines ? {} : { lines: `${a.start}-${a.end}` }),
            chars: a.text.length,
          },
        ]
      : [],
  );
}

function target(a: AskAnswer): string {
  if (a.request.kind === 'search') return `search: ${a.request.query}`;
  if (a.request.kind === 'invalid') return `${a.request.tool || 'a tool call'}: not answered`;
  const range = a.request.start === null ? '' : `:${a.request.start}-${a.request.end ?? a.request.start}`;
  return `${a.path ?? a.request.path}${range}`;
}

function oneLine(s: string): string {
  return sanitizeText(s).replace(/\n/g, ' ').slice(0, 300);
}

function block(content: string): string {
  return `${fenceFor(content)}\n${content.replace(/\n$/, '')}\n${fenceFor(content)}`;
}
