// Letting the model ask: an answer that holds no edits and no NO_CHANGES but requests to see files,
// line ranges or searches is answered from the workbench head (the tree the sandbox has too, read
// only), and the model is asked again, up to `loop.max_asks` times an iteration.
import {
  answerRequests,
  parseAskRequests,
  type AskAnswer,
  type AskRequest,
  type ContextSource,
} from '../context/index.js';
import type { ContextEntry } from '../context/index.js';
import { parseAnswer, type EditFormat } from '../edits/index.js';
import { fenceFor } from '../report/markdown.js';
import { sanitizeText } from '../report/sanitize.js';
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
  const parsed = parseAnswer(answer, { format: options.format, strict: options.strict });
  return parsed.kind === 'unusable' ? requests : [];
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
  for (const a of answers) {
    const head = `## ${oneLine(target(a))}`;
    if (a.text === '') {
      parts.push(`${head}\n\n${oneLine(a.note)}.`);
      continue;
    }
    const body = sanitizeText(a.text);
    const where =
      a.request.kind === 'read'
        ? `[lines ${a.start}-${a.end} of ${a.totalLines}]`
        : `[${a.hits} matching ${a.hits === 1 ? 'line' : 'lines'}]`;
    const note = a.note === '' ? '' : `\n[... ${oneLine(a.note)} ...]`;
    parts.push(`${head}\n\n${block(`${where}\n${body}${note}`)}`);
  }
  const more =
    asked.k < asked.max
      ? 'Now answer with the change (a diff or SEARCH/REPLACE blocks), NO_CHANGES, or another request.'
      : 'That was the last request this iteration: now answer with the change or NO_CHANGES.';
  parts.push(more);
  return `${parts.join('\n\n')}\n`;
}

/** The state's record of each request. */
export function askItems(answers: readonly AskAnswer[]): AskItem[] {
  return answers.map((a) => ({
    kind: a.request.kind,
    target: a.request.kind === 'read' ? (a.path ?? a.request.path) : a.request.query,
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
  const range = a.request.start === null ? '' : `:${a.request.start}-${a.request.end ?? a.request.start}`;
  return `${a.path ?? a.request.path}${range}`;
}

function oneLine(s: string): string {
  return sanitizeText(s).replace(/\n/g, ' ').slice(0, 300);
}

function block(content: string): string {
  return `${fenceFor(content)}\n${content.replace(/\n$/, '')}\n${fenceFor(content)}`;
}
