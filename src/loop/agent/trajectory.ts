// The agent's loop, one screen: ask the model, parse its calls, run them, send the observations
// back, check the bounds and whether it is stuck, until it submits or a bound ends it. Everything
// it wires (parsing, tools, bounds, the stuck detector, history elision, recording) lives beside it.
import { elideHistory } from '../../agent/history.js';
import { parseTurn } from '../../agent/parse-turn.js';
import { judgeStuck, type StepKey, type StuckPattern } from '../../agent/stuck.js';
import type { AgentAction, CallShape, ParsedTurn } from '../../agent/types.js';
import { sharedPrefixLength } from '../../context/index.js';
import type { ChatMessage, GenerateResult } from '../../llm/types.js';
import { TRAJECTORY_ENDS, type TrajectoryEnd } from '../../state/run-state.js';
import { stepKey } from './action-line.js';
import { boundReached, estimateTokens, type TrajectoryBounds } from './bounds.js';
import { assistantMessage, formatError, observationMessages, type Observed } from './messages.js';
import type { SubmittedChange, ToolResult } from './tools.js';

/** Answers in a row without a usable call that end a trajectory. */
export const MAX_UNUSABLE_TURNS = 3;
/** The newest observations never elided from the history. */
export const KEEP_OBSERVATIONS = 4;

/** What the loop wires: the model, the tools, the recorder and a clock (ms). */
export interface TrajectoryDeps {
  generate(messages: ChatMessage[]): Promise<GenerateResult>;
  execute(action: AgentAction): Promise<ToolResult>;
  onTurn(turn: {
    k: number;
    answer: GenerateResult;
    parsed: ParsedTurn;
    sent: string;
    shared?: number;
    elided: number;
    tokens: number;
  }): Promise<void>;
  onStep(step: {
    k: number;
    turn: number;
    action: AgentAction;
    shape: CallShape;
    result: ToolResult;
    startedMs: number;
    durationMs: number;
    tokens: number;
  }): void;
  onNudge(pattern: StuckPattern, message: string): void;
  now(): number;
}

/** How a trajectory ended, and the change when it was submitted. */
export interface TrajectoryOutcome {
  reason: TrajectoryEnd;
  detail: string;
  submitted?: SubmittedChange;
}

/** Run one trajectory from its first messages (system and task) to its end. */
export async function runTrajectory(
  start: readonly ChatMessage[],
  deps: TrajectoryDeps,
  bounds: TrajectoryBounds & { historyTokens: number },
): Promise<TrajectoryOutcome> {
  const history: ChatMessage[] = [...start];
  const keys: StepKey[] = [];
  const nudged = new Set<StuckPattern>();
  const nudge = (pattern: StuckPattern, message: string): string => {
    nudged.add(pattern);
    deps.onNudge(pattern, message);
    return message;
  };
  const t0 = deps.now();
  let [steps, tokens, unusable, previous] = [0, 0, 0, ''];
  for (let turn = 1; ; turn++) {
    const bound = boundReached({ steps, tokens, ms: deps.now() - t0 }, bounds);
    if (bound) return bound;
    const { messages, elided } = elideHistory(history, {
      budgetTokens: bounds.historyTokens,
      keepLast: KEEP_OBSERVATIONS,
      estimate: estimateTokens,
    });
    const answer = await deps.generate(messages);
    const sent = requestText(messages);
    tokens += (answer.promptTokens ?? estimateTokens(sent)) + (answer.completionTokens ?? estimateTokens(answer.text));
    const parsed = parseTurn(answer);
    const shared = turn === 1 ? undefined : sharedPrefixLength(previous, sent);
    await deps.onTurn({ k: turn, answer, parsed, sent, ...(shared === undefined ? {} : { shared }), elided, tokens });
    previous = sent;
    history.push(assistantMessage(answer));
    if (parsed.kind !== 'actions') {
      const callId = parsed.kind === 'malformed' ? parsed.callId : undefined;
      if (++unusable >= MAX_UNUSABLE_TURNS)
        return { reason: 'malformed', detail: `${unusable} answers in a row without a usable tool call` };
      keys.push({ action: '', observation: '', failed: true, malformed: true });
      const verdict = judgeStuck(keys, nudged);
      if (verdict.kind === 'stuck') return { reason: 'stuck', detail: `stuck: ${verdict.pattern} after one nudge` };
      const note = verdict.kind === 'nudge' ? nudge(verdict.pattern, verdict.message) : undefined;
      history.push(
        ...observationMessages(answer, [{ ...(callId ? { callId } : {}), text: formatError(parsed) }], note),
      );
    } else {
      unusable = 0;
      const observed: Observed[] = [];
      let note: string | undefined;
      for (const { action, shape, callId } of parsed.actions) {
        if (boundReached({ steps, tokens, ms: deps.now() - t0 }, bounds)) break;
        const startedMs = deps.now();
        const result = await deps.execute(action);
        steps++;
        deps.onStep({ k: steps, turn, action, shape, result, startedMs, durationMs: deps.now() - startedMs, tokens });
        if (result.submitted) return { reason: 'submitted', detail: result.observation, submitted: result.submitted };
        observed.push({ ...(callId ? { callId } : {}), text: result.observation });
        keys.push(stepKey(action, result.observation, result.outcome !== 'ok'));
        const verdict = judgeStuck(keys, nudged);
        if (verdict.kind === 'stuck') return { reason: 'stuck', detail: `stuck: ${verdict.pattern} after one nudge` };
        if (verdict.kind === 'nudge') note = nudge(verdict.pattern, verdict.message);
      }
      history.push(...observationMessages(answer, observed, note));
    }
    // a replayed trajectory ends where the recorded one did (at a bound a replay cannot meet alike)
    const recorded = TRAJECTORY_ENDS.find((e) => e === answer.trajectoryEnd);
    if (recorded) return { reason: recorded, detail: 'where the recorded trajectory ended' };
  }
}

/** The text of a request's messages as the server gets them, for the prefix it shares with the last. */
export function requestText(messages: readonly ChatMessage[]): string {
  return messages
    .map((m) => {
      const calls = m.role === 'assistant' && m.toolCalls ? JSON.stringify(m.toolCalls) : '';
      return `<${m.role}${m.role === 'tool' ? ` ${m.toolCallId}` : ''}>\n${m.content}${calls}\n`;
    })
    .join('');
}
