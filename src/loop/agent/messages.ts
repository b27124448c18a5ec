// The conversation of a trajectory: the model's turns and the observations that answer them, in the
// shape each protocol expects (pure).
import { shapeHint } from '../../agent/examples.js';
import type { CallFormat, ParsedTurn } from '../../agent/types.js';
import type { ChatMessage, ToolCall } from '../../llm/types.js';

/** One observation, answering a native call (callId) or a call written in the text. */
export interface Observed {
  callId?: string;
  text: string;
}

/** An answer as the conversation keeps it: its text, and its native calls so tool messages can answer them. */
export function assistantMessage(answer: { text: string; toolCalls?: readonly ToolCall[] }): ChatMessage {
  const calls = answer.toolCalls ?? [];
  return calls.length > 0
    ? { role: 'assistant', content: answer.text, toolCalls: calls }
    : { role: 'assistant', content: answer.text };
}

/** What a native call that was not run is told. */
export const NOT_RUN = '(not run: only the calls before this one in the same answer ran)';

/**
 * The messages that carry a turn's observations back: one tool message per native call (every call
 * is answered, the ones not run say so), else one user message; `note` (a nudge) follows as a user message.
 */
export function observationMessages(
  answer: { toolCalls?: readonly ToolCall[] },
  observed: readonly Observed[],
  note?: string,
): ChatMessage[] {
  const calls = answer.toolCalls ?? [];
  const out: ChatMessage[] = [];
  if (calls.length > 0) {
    for (const call of calls) {
      const o = observed.find((x) => x.callId === call.id);
      out.push({ role: 'tool', content: o?.text ?? NOT_RUN, toolCallId: call.id, toolName: call.name });
    }
    // calls written in the text of an answer that also made native calls
    const rest = observed.filter((o) => o.callId === undefined || !calls.some((c) => c.id === o.callId));
    if (rest.length > 0) out.push({ role: 'user', content: joined(rest) });
  } else if (observed.length > 0) out.push({ role: 'user', content: joined(observed) });
  if (note !== undefined) out.push({ role: 'user', content: note });
  return out;
}

/**
 * What the model is told about a turn without a usable call. An answer with no call gets an
 * example in the format it came closest to, else in `format` (its family's, or the one it was taught).
 */
export function formatError(turn: Exclude<ParsedTurn, { kind: 'actions' }>, format: CallFormat = 'qwen-xml'): string {
  const how =
    'Answer with exactly one tool call: bash (command), edit (command, path, ...) or submit (when the change is done and tested).';
  return turn.kind === 'malformed'
    ? `Your tool call could not be used: ${turn.reason}\n${how}`
    : `Your answer has no tool call. ${how} ${shapeHint('bash', turn.near ?? format)}`;
}

function joined(observed: readonly Observed[]): string {
  if (observed.length === 1) return observed[0]!.text;
  return observed.map((o, i) => `[result of call ${i + 1}]\n${o.text}`).join('\n\n');
}
