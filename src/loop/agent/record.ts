// Recording a trajectory as it happens: each turn's answer byte for byte (replay and resume play
// them back) and its counts, each step bounded, into the sealed state; the whole conversation into
// the trajectory artifact; a progress event per step. Writes are left behind, never awaited in the
// step's path: the store writes in call order, so an artifact lands before the state naming it.
import type { StuckPattern } from '../../agent/stuck.js';
import type { AgentAction, CallShape, ParsedTurn } from '../../agent/types.js';
import type { ChatMessage, GenerateResult } from '../../llm/types.js';
import { artifactNames } from '../../state/artifact-names.js';
import {
  STEP_ACTION_CHARS,
  STEP_OBSERVATION_CHARS,
  type AgentStep,
  type AgentTurn,
  type Iteration,
  type RunState,
  type Trajectory,
} from '../../state/run-state.js';
import { renderToolCallsArtifact } from '../../state/tool-calls-artifact.js';
import { updateIteration } from '../../state/transitions.js';
import type { RunRecorder } from '../phase-runner.js';
import type { RunDeps } from '../run-types.js';
import { actionLine } from './action-line.js';
import type { ToolResult } from './tools.js';
import { renderTrajectory, type TrajectoryPart } from './trajectory-artifact.js';
import type { TrajectoryOutcome } from './trajectory.js';

/** Records one iteration's trajectory. */
export class TrajectoryRecorder {
  private readonly parts: TrajectoryPart[] = [];
  private readonly artifact: string;

  constructor(
    private readonly rec: RunRecorder,
    private readonly deps: Pick<RunDeps, 'emit' | 'now'>,
    private readonly n: number,
    start: readonly ChatMessage[],
  ) {
    this.artifact = artifactNames.trajectory(n);
    this.parts.push({ kind: 'start', messages: start });
    this.change((t) => t, { initial: { artifact: this.artifact, turns: [], steps: [], end: null } });
  }

  /** A model turn, before its calls run: its answer and calls as artifacts, its counts in the state. */
  turn(t: {
    k: number;
    answer: GenerateResult;
    parsed: ParsedTurn;
    sent: string;
    shared?: number;
    elided: number;
  }): void {
    const { answer } = t;
    const answerArtifact = artifactNames.turnAnswer(this.n, t.k);
    void this.rec.artifact(answerArtifact, answer.text, { behind: true });
    const calls = answer.toolCalls ?? [];
    const callsArtifact = calls.length > 0 ? artifactNames.turnToolCalls(this.n, t.k) : undefined;
    if (callsArtifact !== undefined)
      void this.rec.artifact(callsArtifact, renderToolCallsArtifact(calls), { behind: true });
    const record: AgentTurn = {
      k: t.k,
      answer_artifact: answerArtifact,
      ...(callsArtifact === undefined ? {} : { tool_calls_artifact: callsArtifact }),
      model: answer.model,
      ...(answer.promptTokens === undefined ? {} : { prompt_tokens: answer.promptTokens }),
      ...(answer.completionTokens === undefined ? {} : { completion_tokens: answer.completionTokens }),
      duration_ms: Math.round(answer.durationMs),
      ...(answer.finishReason === undefined ? {} : { finish_reason: answer.finishReason.slice(0, 64) }),
      parsed: t.parsed.kind,
      prompt_chars: t.sent.length,
      ...(t.shared === undefined ? {} : { shared_prefix_chars: t.shared }),
      ...(t.elided > 0 ? { elided: t.elided } : {}),
    };
    const tokens = [answer.promptTokens, answer.completionTokens].every((x) => x === undefined)
      ? 'tokens not counted'
      : `${answer.promptTokens ?? '?'} + ${answer.completionTokens ?? '?'} tokens`;
    this.parts.push({
      kind: 'turn',
      k: t.k,
      text: answer.text,
      ...(calls.length > 0 ? { toolCalls: calls } : {}),
      note: `${t.parsed.kind}, ${Math.round(answer.durationMs)} ms, ${tokens}`,
    });
    if (t.parsed.kind === 'malformed') {
      const title = t.parsed.cut === undefined ? 'malformed call' : 'cut off: none of its calls ran';
      this.parts.push({ kind: 'text', title, text: t.parsed.reason });
    }
    // on disk while the calls run: a run stopped from here on resumes with this answer
    this.change((tr) => ({ ...tr, turns: [...tr.turns, record] }));
  }

  /** A tool call that ran: bounded in the state, whole in the artifact, one progress event. */
  step(s: {
    k: number;
    turn: number;
    action: AgentAction;
    shape: CallShape;
    result: ToolResult;
    startedMs: number;
    durationMs: number;
    tokens: number;
  }): void {
    const { result } = s;
    const line = actionLine(s.action);
    const now = this.deps.now();
    const record = agentStepRecord(s, now);
    const how = result.exitCode === undefined ? result.outcome : `exit ${result.exitCode}`;
    this.parts.push({ kind: 'step', k: s.k, line, how, observation: result.observation });
    // written with the next turn's record (resume runs the calls of recorded turns again anyway)
    this.change((tr) => ({ ...tr, steps: [...tr.steps, record] }), { write: false });
    this.deps.emit({
      type: 'agent_step',
      run_id: this.rec.state.run_id,
      at: now.toISOString(),
      iteration: this.n,
      step: s.k,
      tool: s.action.tool,
      action: cut(line, 200),
      outcome: result.outcome,
      exit_code: result.exitCode ?? null,
      duration_ms: Math.round(s.durationMs),
      tokens: s.tokens,
    });
  }

  /** The model was nudged about a stuck pattern. */
  nudge(pattern: StuckPattern, message: string): void {
    this.parts.push({ kind: 'text', title: `nudge (${pattern})`, text: message });
    this.change((tr) => ({ ...tr, nudges: [...(tr.nudges ?? []), pattern] }));
  }

  /** How the trajectory ended; the artifact written whole. */
  async end(outcome: TrajectoryOutcome): Promise<void> {
    this.parts.push({ kind: 'end', reason: outcome.reason, detail: outcome.detail });
    this.change((tr) => ({ ...tr, end: { reason: outcome.reason, detail: cut(outcome.detail, 500) } }));
    await this.writeArtifact();
  }

  /** The trajectory artifact as it stands (at the end, or when the trajectory was cut short). */
  async writeArtifact(): Promise<void> {
    await this.rec.artifact(this.artifact, renderTrajectory(this.n, this.parts), { behind: true });
  }

  private change(f: (t: Trajectory) => Trajectory, opts: { initial?: Trajectory; write?: boolean } = {}): void {
    const change = (s: RunState, now: Date): RunState => {
      const it: Iteration | undefined = s.iterations.find((i) => i.n === this.n);
      const current = opts.initial ?? it?.trajectory;
      return current === undefined ? s : updateIteration(s, this.n, { trajectory: f(current) }, now);
    };
    if (opts.write === false) this.rec.change(change);
    else this.rec.changeBehind(change);
  }
}

/** One executed call as the state records it: the action and observation cut to their caps, timed (ended at `now`). */
export function agentStepRecord(
  s: { k: number; turn: number; action: AgentAction; shape: CallShape; result: ToolResult; durationMs: number },
  now: Date,
): AgentStep {
  const { result } = s;
  const started = new Date(now.getTime() - Math.round(s.durationMs));
  return {
    k: s.k,
    turn: s.turn,
    tool: s.action.tool,
    action: cut(actionLine(s.action), STEP_ACTION_CHARS),
    shape: s.shape,
    ...(result.path === undefined ? {} : { path: result.path }),
    outcome: result.outcome,
    ...(result.exitCode === undefined ? {} : { exit_code: result.exitCode }),
    ...(result.timedOut ? { timed_out: true } : {}),
    observation: cut(result.observation, STEP_OBSERVATION_CHARS),
    observation_chars: result.observation.length,
    started_at: started.toISOString(),
    duration_ms: Math.round(s.durationMs),
    ...(result.commandMs === undefined ? {} : { command_ms: Math.round(result.commandMs) }),
  };
}

/** `text` cut to `max` characters: its head and tail, with a line saying how much was left out. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 60) / 2);
  return `${text.slice(0, half)}\n[... ${text.length - 2 * half} characters omitted ...]\n${text.slice(-half)}`;
}
