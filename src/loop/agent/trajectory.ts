// The agent's loop, one screen: ask the model, parse its calls, run them, send the observations
// back, check the bounds and whether it is stuck, until it submits or a bound ends it. One turn is
// `Trajectory.turn()`, so a person can drive it turn by turn (chat); `runTrajectory` is the loop a
// run iterates. Everything it wires (parsing, tools, bounds, the stuck detector, history elision,
// recording) lives beside it.
import { elideHistory } from '../../agent/history.js';
import { parseTurn } from '../../agent/parse-turn.js';
import { judgeStuck, type StepKey, type StuckPattern } from '../../agent/stuck.js';
import type { AgentAction, CallFormat, CallShape, ParsedTurn } from '../../agent/types.js';
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
  /**
   * Ask the model; `timeLeftMs` is what is left of the trajectory's wall time (`agent.max_seconds`):
   * the request is aborted when it runs out, and null says so (the trajectory then ends at its bound).
   */
  generate(messages: ChatMessage[], timeLeftMs: number): Promise<GenerateResult | null>;
  /** Run one call; a command gets at most `timeLeftMs` (what is left of the trajectory's wall time). */
  execute(action: AgentAction, timeLeftMs: number): Promise<ToolResult>;
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
  /** How an answer is read (default parseTurn). */
  parse?(answer: GenerateResult): ParsedTurn;
  /** The call format examples are shown in when an answer makes no call (the model family's; default qwen3-coder's XML). */
  callFormat?(): CallFormat;
}

/** How a trajectory ended, and the change when it was submitted. */
export interface TrajectoryOutcome {
  reason: TrajectoryEnd;
  detail: string;
  submitted?: SubmittedChange;
}

/** What one turn came to: go on, the trajectory's end, or (when talk is an answer) words for the person. */
export type TurnOutcome =
  { kind: 'more' } | { kind: 'end'; outcome: TrajectoryOutcome } | { kind: 'answered'; text: string };

/** A trajectory's bounds and its history's budget. */
export type TrajectoryLimits = TrajectoryBounds & { historyTokens: number };

/**
 * A conversation with the tools, one turn at a time: the history, the stuck detector's memory and
 * the counts the bounds are checked against. `restart` begins a new stretch of work on the same
 * history (chat: each message of the person's), with fresh counts.
 */
export class Trajectory {
  readonly history: ChatMessage[];
  #keys: StepKey[] = [];
  #nudged = new Set<StuckPattern>();
  #turn = 0;
  #previous = '';
  #steps = 0;
  #tokens = 0;
  #unusable = 0;
  #t0: number;
  /** The answer whose calls are running, and what they gave so far (see settleInterrupted). */
  #running: { answer: GenerateResult; observed: Observed[] } | undefined;

  constructor(
    start: readonly ChatMessage[],
    private readonly deps: TrajectoryDeps,
    private bounds: TrajectoryLimits,
  ) {
    this.history = [...start];
    this.#t0 = deps.now();
  }

  /** Tool calls and tokens since the start (or the last restart). */
  get counts(): { steps: number; tokens: number; turns: number } {
    return { steps: this.#steps, tokens: this.#tokens, turns: this.#turn };
  }

  /** Begin a new stretch of work on the same history: counts, clock and stuck memory start again. */
  restart(bounds: TrajectoryLimits = this.bounds): void {
    this.bounds = bounds;
    this.#keys = [];
    this.#nudged = new Set();
    this.#steps = 0;
    this.#tokens = 0;
    this.#unusable = 0;
    this.#t0 = this.deps.now();
  }

  /**
   * After a turn was cut short (the person stopped it while its calls ran): the calls that ran are
   * answered in the history with their results, the others with `note`, so the next request is well formed.
   */
  settleInterrupted(note: string): void {
    const running = this.#running;
    this.#running = undefined;
    if (running === undefined) return;
    const calls = running.answer.toolCalls ?? [];
    const answered = new Set(running.observed.map((o) => o.callId));
    const rest: Observed[] =
      calls.length > 0
        ? calls.filter((c) => !answered.has(c.id)).map((c) => ({ callId: c.id, text: note }))
        : [{ text: note }];
    this.history.push(...observationMessages(running.answer, [...running.observed, ...rest]));
  }

  /**
   * One turn: ask the model, parse its answer, run its calls in order, push the observations. With
   * `talk`, an answer without any call is the model's answer to the person (chat); otherwise it is
   * an unusable turn, told what was wrong.
   */
  async turn(opts: { talk?: boolean } = {}): Promise<TurnOutcome> {
    const { deps, bounds } = this;
    const bound = boundReached(this.#progress(), bounds);
    if (bound) return { kind: 'end', outcome: bound };
    const turn = ++this.#turn;
    const { messages, elided } = elideHistory(this.history, {
      budgetTokens: bounds.historyTokens,
      keepLast: KEEP_OBSERVATIONS,
      estimate: estimateTokens,
    });
    const answer = await deps.generate(messages, this.#timeLeft());
    if (answer === null) {
      const s = Math.round(bounds.maxMs / 1000);
      return end('max_seconds', `${s} s of wall time (agent.max_seconds) ran out while the model was answering`);
    }
    const sent = requestText(messages);
    this.#tokens +=
      (answer.promptTokens ?? estimateTokens(sent)) + (answer.completionTokens ?? estimateTokens(answer.text));
    const parsed = (deps.parse ?? parseTurn)(answer);
    const shared = turn === 1 ? undefined : sharedPrefixLength(this.#previous, sent);
    const tokens = this.#tokens;
    await deps.onTurn({ k: turn, answer, parsed, sent, ...(shared === undefined ? {} : { shared }), elided, tokens });
    this.#previous = sent;
    this.history.push(assistantMessage(answer));
    if (parsed.kind === 'none' && opts.talk) {
      this.#unusable = 0;
      return { kind: 'answered', text: parsed.thought };
    }
    if (parsed.kind !== 'actions') {
      const callId = parsed.kind === 'malformed' ? parsed.callId : undefined;
      if (++this.#unusable >= MAX_UNUSABLE_TURNS)
        return end('malformed', `${this.#unusable} answers in a row without a usable tool call`);
      this.#keys.push({ action: '', observation: '', failed: true, malformed: true });
      const verdict = judgeStuck(this.#keys, this.#nudged);
      if (verdict.kind === 'stuck') return end('stuck', `stuck: ${verdict.pattern} after one nudge`);
      const note = verdict.kind === 'nudge' ? this.#nudge(verdict.pattern, verdict.message) : undefined;
      this.history.push(
        ...observationMessages(
          answer,
          [{ ...(callId ? { callId } : {}), text: formatError(parsed, deps.callFormat?.()) }],
          note,
        ),
      );
    } else {
      this.#unusable = 0;
      const running = { answer, observed: [] as Observed[] };
      this.#running = running;
      let note: string | undefined;
      for (const { action, shape, callId } of parsed.actions) {
        if (boundReached(this.#progress(), bounds)) break;
        const startedMs = deps.now();
        const result = await deps.execute(action, this.#timeLeft());
        this.#steps++;
        const durationMs = deps.now() - startedMs;
        deps.onStep({ k: this.#steps, turn, action, shape, result, startedMs, durationMs, tokens });
        if (result.submitted) {
          this.#running = undefined;
          return {
            kind: 'end',
            outcome: { reason: 'submitted', detail: result.observation, submitted: result.submitted },
          };
        }
        running.observed.push({ ...(callId ? { callId } : {}), text: result.observation });
        this.#keys.push(stepKey(action, result.observation, result.outcome !== 'ok'));
        const verdict = judgeStuck(this.#keys, this.#nudged);
        if (verdict.kind === 'stuck') {
          this.#running = undefined;
          return end('stuck', `stuck: ${verdict.pattern} after one nudge`);
        }
        if (verdict.kind === 'nudge') note = this.#nudge(verdict.pattern, verdict.message);
      }
      this.#running = undefined;
      this.history.push(...observationMessages(answer, running.observed, note));
    }
    // a replayed trajectory ends where the recorded one did (at a bound a replay cannot meet alike)
    const recorded = TRAJECTORY_ENDS.find((e) => e === answer.trajectoryEnd);
    if (recorded) return end(recorded, 'where the recorded trajectory ended');
    return { kind: 'more' };
  }

  #timeLeft(): number {
    return Math.max(0, this.bounds.maxMs - (this.deps.now() - this.#t0));
  }

  #progress(): { steps: number; tokens: number; ms: number } {
    return { steps: this.#steps, tokens: this.#tokens, ms: this.deps.now() - this.#t0 };
  }

  #nudge(pattern: StuckPattern, message: string): string {
    this.#nudged.add(pattern);
    this.deps.onNudge(pattern, message);
    return message;
  }
}

/** Run one trajectory from its first messages (system and task) to its end. */
export async function runTrajectory(
  start: readonly ChatMessage[],
  deps: TrajectoryDeps,
  bounds: TrajectoryLimits,
): Promise<TrajectoryOutcome> {
  const trajectory = new Trajectory(start, deps, bounds);
  for (;;) {
    const r = await trajectory.turn();
    if (r.kind === 'end') return r.outcome;
  }
}

function end(reason: TrajectoryEnd, detail: string): TurnOutcome {
  return { kind: 'end', outcome: { reason, detail } };
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
