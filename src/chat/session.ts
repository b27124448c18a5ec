// A conversation about a repository, driven by a person one message at a time: agent mode's
// trajectory turn by turn and its tools on the sandbox (the same gates), read-only mode, the tests,
// the change, undo; every exchange recorded in the sealed conversation and its transcript.
import { AGENT_TOOLS, agentToolsText } from '../agent/tool-specs.js';
import type { AgentAction } from '../agent/types.js';
import { parseTurn } from '../agent/parse-turn.js';
import type { Config } from '../config/schema.js';
import { HammerError, isHammerError } from '../errors.js';
import type { ChatMessage, GenerateResult, ModelProvider } from '../llm/index.js';
import { actionLine } from '../loop/agent/action-line.js';
import { agentStepRecord } from '../loop/agent/record.js';
import { AgentTools, type SubmittedChange, type ToolResult } from '../loop/agent/tools.js';
import { Trajectory, type TrajectoryLimits } from '../loop/agent/trajectory.js';
import { focusedRunStands, withFocus } from '../loop/focus-tests.js';
import type { SandboxRepo } from '../loop/sandbox-repo.js';
import { testPassed } from '../loop/stop-conditions.js';
import { toTestRecord } from '../loop/test-record.js';
import { renderTestLog } from '../test-output/test-log.js';
import type { ConversationStore } from '../state/conversation-store.js';
import {
  MAX_EXCHANGES,
  MAX_USER_CHARS,
  conversationArtifacts,
  type AnswerEnd,
  type ChangeRecord,
  type ChatMode,
  type Conversation,
  type Exchange,
} from '../state/conversation.js';
import type { AgentStep, TestRecord } from '../state/run-state.js';
import { focusCommand } from '../test-output/index.js';
import type { ChatEmitter } from './events.js';
import { chatSystemMessage, modeNote } from './prompt.js';
import { changedFiles, fromStored, sha256Hex, toStored, withoutLastExchange } from './record.js';
import { renderTranscript } from './transcript.js';

/** What a session works with, wired once (see open.ts). */
export interface ChatSessionDeps {
  provider: ModelProvider;
  store: ConversationStore;
  repo: SandboxRepo;
  /** The sandbox's base commit: every change is the work tree's against it. */
  base: string;
  config: Config;
  testCommand: string;
  now: () => Date;
  /** A monotonic clock in ms. */
  clock?: () => number;
}

/** What a person's message came to. */
export interface AskOutcome {
  exchange: Exchange;
  /** The error that broke the answer off (the exchange is recorded all the same). */
  error?: Error;
}

/** The work tree's change as read back: null for none, or over the size that can be kept. */
type RawChange = Buffer | null | { tooLarge: number };

const NOOP: ChatEmitter = () => undefined;
const STOPPED = '(stopped by the person before this call ran)';

/** One conversation on one sandbox. */
export class ChatSession {
  #c: Conversation;
  #trajectory: Trajectory;
  #tools: AgentTools;
  #native: boolean;
  #textSystem: string | undefined;
  #notes: string[] = [];
  /** The change the work tree holds as far as this session knows (kept current in read-only mode). */
  #change: { raw: RawChange; record: ChangeRecord | null };
  #signal: AbortSignal | undefined;
  #on: ChatEmitter = NOOP;
  #current: { steps: AgentStep[]; turns: number; prompt: number; completion: number } | undefined;

  private constructor(
    private readonly deps: ChatSessionDeps,
    c: Conversation,
  ) {
    this.#c = c;
    this.#native = deps.config.model.tools === 'auto';
    this.#trajectory = this.#newTrajectory();
    this.#tools = this.#newTools();
    this.#change = { raw: null, record: null };
  }

  /** A session on a new conversation (written at once); `firstNote` goes before the first message. */
  static async start(deps: ChatSessionDeps, c: Conversation): Promise<ChatSession> {
    const s = new ChatSession(deps, c);
    if (c.mode === 'plan') s.#notes.push(modeNote('plan'));
    await deps.store.create(c);
    await s.#writeTranscript();
    return s;
  }

  /**
   * A session continuing a recorded conversation: the sandbox's work tree is put back to the base plus
   * the change recorded after the last exchange (its diff checked against the sealed hash). Returns a
   * warning when that change could not be put back.
   */
  static async resume(
    deps: ChatSessionDeps,
    c: Conversation,
    signal?: AbortSignal,
  ): Promise<{ session: ChatSession; warning: string | null }> {
    const s = new ChatSession(deps, c);
    const record = c.exchanges.at(-1)?.change ?? null;
    let warning: string | null = null;
    let raw: RawChange = null;
    if (record !== null) {
      const bytes = await s.#loadChange(record);
      if (bytes === null)
        warning = `the change after exchange ${c.exchanges.length} was not kept (over policy.max_patch_bytes); the work tree starts at the base`;
      else if (!(await deps.repo.restore(deps.base, bytes, signal)))
        warning = `the recorded change no longer applies to the base; the work tree starts at the base`;
      else raw = bytes;
    }
    s.#change = { raw, record: raw === null ? null : record };
    s.#c = { ...s.#c, owner: { pid: process.pid, host: c.owner?.host ?? '' } };
    return { session: s, warning };
  }

  /** The conversation as recorded so far. */
  get conversation(): Conversation {
    return this.#c;
  }

  /** code or plan (read-only). */
  get mode(): ChatMode {
    return this.#c.mode;
  }

  /** The settings the session runs with. */
  get config(): Config {
    return this.deps.config;
  }

  /** The test command. */
  get testCommand(): string {
    return this.deps.testCommand;
  }

  /** Switch between code and read-only mode; the model is told with the next message. */
  async setMode(mode: ChatMode, signal?: AbortSignal): Promise<void> {
    if (mode === this.#c.mode) return;
    // read-only mode puts the work tree back after each command: know what it holds now
    if (mode === 'plan') await this.#captureChange(signal);
    this.#c = { ...this.#c, mode };
    this.#notes.push(modeNote(mode));
    await this.#save();
  }

  /**
   * Send the person's message and let the model work until it answers in words, a bound ends it,
   * or `signal` stops it. The exchange is recorded however it ended.
   */
  async ask(text: string, opts: { signal?: AbortSignal; on?: ChatEmitter } = {}): Promise<AskOutcome> {
    if (text.length > MAX_USER_CHARS)
      throw new HammerError('USAGE', `the message is ${text.length} characters, over ${MAX_USER_CHARS}`, {
        hint: 'say it in fewer words; the model reads the files itself',
      });
    if (this.#c.exchanges.length >= MAX_EXCHANGES)
      throw new HammerError('USAGE', `this conversation holds ${MAX_EXCHANGES} exchanges, the most one keeps`, {
        hint: 'start another with /new',
      });
    this.#signal = opts.signal;
    this.#on = opts.on ?? NOOP;
    const clock = this.deps.clock ?? (() => performance.now());
    const startedAt = this.deps.now();
    const t0 = clock();
    const messagesAt = this.#trajectory.history.length;
    const content = [...this.#notes.splice(0), text].join('\n\n');
    this.#trajectory.history.push({ role: 'user', content });
    this.#trajectory.restart(this.#limits());
    const current = { steps: [] as AgentStep[], turns: 0, prompt: 0, completion: 0 };
    this.#current = current;
    let answer = '';
    let end: { reason: AnswerEnd; detail: string };
    let error: Error | undefined;
    try {
      for (;;) {
        const r = await this.#trajectory.turn({ talk: true });
        if (r.kind === 'answered') {
          answer = r.text;
          end = { reason: 'answered', detail: '' };
          break;
        }
        if (r.kind === 'end') {
          end = { reason: r.outcome.reason, detail: r.outcome.detail.slice(0, 500) };
          break;
        }
      }
    } catch (err) {
      const interrupted = isHammerError(err, 'ABORTED') || opts.signal?.aborted === true;
      this.#trajectory.settleInterrupted(interrupted ? STOPPED : '(not run: the answer broke off)');
      if (interrupted) this.#notes.push('[The person stopped your previous answer.]');
      else error = err instanceof Error ? err : new HammerError('INTERNAL', String(err));
      const message = err instanceof Error ? err.message : String(err);
      end = interrupted ? { reason: 'interrupted', detail: '' } : { reason: 'error', detail: message.slice(0, 500) };
    } finally {
      this.#signal = undefined;
      this.#on = NOOP;
      this.#current = undefined;
    }
    const n = this.#c.exchanges.length + 1;
    // the change after it (read-only mode changes nothing: what it held before)
    const change = this.#c.mode === 'code' ? await this.#captureChange(undefined, n) : this.#change.record;
    const exchange: Exchange = {
      n,
      started_at: startedAt.toISOString(),
      mode: this.#c.mode,
      messages_at: messagesAt,
      user: text,
      answer,
      turns: current.turns,
      steps: current.steps,
      prompt_tokens: current.prompt,
      completion_tokens: current.completion,
      duration_ms: Math.max(0, clock() - t0),
      end,
      change,
    };
    this.#c = { ...this.#c, exchanges: [...this.#c.exchanges, exchange] };
    await this.#save();
    return error === undefined ? { exchange } : { exchange, error };
  }

  /** The work tree's change against the base, as git prints it (untrusted); '' for none. */
  async diff(signal?: AbortSignal): Promise<string> {
    const raw = await this.#readChange(signal);
    if (raw === null) return '';
    if (!Buffer.isBuffer(raw))
      return `(the change is ${raw.tooLarge} bytes, over policy.max_patch_bytes; it is not shown)\n`;
    return raw.toString('utf8');
  }

  /**
   * The work tree's change as a candidate: read back and vetted as agent mode's submit vets it (a
   * string says why it cannot be one). Null when there is none.
   */
  async candidate(signal?: AbortSignal): Promise<SubmittedChange | string | null> {
    const prior = this.#signal;
    this.#signal = signal;
    try {
      const r = await this.#tools.run({ tool: 'submit' });
      if (r.submitted) return r.submitted.patch === '' ? null : r.submitted;
      return r.observation.replace(/^submit refused: /, '').replace(/ Fix that, then submit again\.$/, '');
    } finally {
      this.#signal = prior;
    }
  }

  /**
   * Run the test command, the failing tests of the last run first (the whole suite when they pass),
   * with whatever the tests change in the files undone after. The model hears the result with the
   * next message.
   */
  async test(opts: { signal?: AbortSignal; onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void } = {}) {
    const { config, testCommand, repo } = this.deps;
    const timeoutMs = config.tools.test_timeout * 1000;
    const last = this.#c.last_test;
    const focus =
      config.tools.focus && last !== null && !testPassed(last) && last.parsed
        ? focusCommand(testCommand, last.parsed.failing)
        : null;
    const artifact = 'last-test.log';
    const recordOf = (r: Parameters<typeof toTestRecord>[0], command: string): TestRecord =>
      toTestRecord(r, {
        command,
        artifact,
        headLines: config.prompt.output_head_lines,
        tailLines: config.prompt.output_tail_lines,
        failureLines: config.prompt.output_failure_lines,
        maxFailures: config.prompt.output_max_failures,
      });
    const record = await this.#discarding(opts.signal, async () => {
      const first = await repo.test(focus?.command ?? testCommand, timeoutMs, opts.onOutput, opts.signal);
      let test = recordOf(first, focus?.command ?? testCommand);
      let log = renderTestLog(test.command, first);
      if (focus) {
        if (focusedRunStands(test)) test = { ...test, scope: 'focused' };
        else {
          const full = await repo.test(testCommand, timeoutMs, opts.onOutput, opts.signal);
          test = withFocus(recordOf(full, testCommand), test);
          log = `${log}\n${renderTestLog(testCommand, full)}`;
        }
      }
      await this.deps.store.writeArtifact(this.#c.id, artifact, log);
      return test;
    });
    const failing = record.parsed?.failing.map((t) => t.id) ?? [];
    const what = testPassed(record)
      ? 'they pass'
      : `${record.timed_out ? 'they timed out' : `exit ${record.exit_code}`}${failing.length ? `; failing: ${failing.slice(0, 10).join(', ')}` : ''}`;
    this.#notes.push(`[The person ran the tests (${record.command}): ${what}.]`);
    this.#c = { ...this.#c, last_test: record };
    await this.#save();
    return record;
  }

  /**
   * Take back the last exchange: its messages leave the conversation and the work tree goes back to
   * the change recorded before it. Null when there is nothing to undo.
   */
  async undo(signal?: AbortSignal): Promise<Exchange | null> {
    const last = this.#c.exchanges.at(-1);
    if (last === undefined) return null;
    const before = this.#c.exchanges.at(-2)?.change ?? null;
    const bytes = before === null ? null : await this.#loadChange(before);
    if (before !== null && bytes === null)
      throw new HammerError(
        'USAGE',
        `the change before exchange ${last.n} was not kept (it was over policy.max_patch_bytes)`,
        {
          hint: 'undo it by asking the model, or start again with /new',
        },
      );
    if (!(await this.deps.repo.restore(this.deps.base, bytes, signal)))
      throw new HammerError('SANDBOX_BROKEN', 'the recorded change no longer applies to the base');
    this.#c = withoutLastExchange(this.#c);
    this.#trajectory = this.#newTrajectory();
    this.#tools = this.#newTools();
    this.#change = { raw: bytes, record: before };
    await this.#save();
    return last;
  }

  /** Begin a new conversation on the same sandbox: the work tree goes back to the base. */
  async restart(next: Conversation, signal?: AbortSignal): Promise<void> {
    await this.deps.repo.restore(this.deps.base, null, signal);
    this.#c = next;
    this.#notes = next.mode === 'plan' ? [modeNote('plan')] : [];
    this.#trajectory = this.#newTrajectory();
    this.#tools = this.#newTools();
    this.#change = { raw: null, record: null };
    await this.deps.store.create(next);
    await this.#writeTranscript();
  }

  /** Record a run the conversation handed its work to. */
  async recordHandoff(h: Conversation['handoffs'][number]): Promise<void> {
    this.#c = { ...this.#c, handoffs: [...this.#c.handoffs, h] };
    await this.#save();
  }

  // ---- the trajectory's wiring

  #limits(): TrajectoryLimits {
    const { agent } = this.deps.config;
    return {
      maxSteps: agent.max_steps,
      runStepsLeft: agent.max_steps,
      maxMs: agent.max_seconds * 1000,
      maxTokens: agent.max_tokens,
      historyTokens: agent.history_tokens,
    };
  }

  #newTrajectory(): Trajectory {
    const clock = this.deps.clock ?? (() => performance.now());
    return new Trajectory(
      this.#c.messages.map(fromStored),
      {
        generate: (messages) => this.#generate(messages),
        execute: (action) => this.#execute(action),
        onTurn: async (t) => {
          const c = this.#current;
          if (c) {
            c.turns++;
            c.prompt += t.answer.promptTokens ?? 0;
            c.completion += t.answer.completionTokens ?? 0;
          }
          this.#on({
            type: 'turn',
            k: t.k,
            ...(t.answer.promptTokens === undefined ? {} : { promptTokens: t.answer.promptTokens }),
            ...(t.answer.completionTokens === undefined ? {} : { completionTokens: t.answer.completionTokens }),
            durationMs: t.answer.durationMs,
            parsed: t.parsed.kind,
          });
        },
        onStep: (s) => {
          const c = this.#current;
          const turn = c?.turns ?? 1;
          if (c)
            c.steps.push(agentStepRecord({ ...s, k: c.steps.length + 1, turn: Math.max(1, turn) }, this.deps.now()));
          this.#on({
            type: 'step',
            tool: s.action.tool,
            line: actionLine(s.action),
            outcome: s.result.outcome,
            ...(s.result.exitCode === undefined ? {} : { exitCode: s.result.exitCode }),
            durationMs: s.durationMs,
            observation: s.result.observation,
            ...(s.result.diff ? { diff: s.result.diff } : {}),
          });
        },
        onNudge: (pattern) => this.#on({ type: 'nudge', pattern }),
        now: clock,
        parse: (answer) => parseTurn(answer, { fenced: false }),
      },
      this.#limits(),
    );
  }

  #newTools(): AgentTools {
    const current = (): AbortSignal | undefined => this.#signal;
    // the signal is the current message's (or command's), read at each call
    return new AgentTools({
      repo: this.deps.repo,
      config: this.deps.config,
      head: () => this.deps.base,
      ready: async () => undefined,
      get signal() {
        return current();
      },
    });
  }

  async #generate(messages: ChatMessage[]): Promise<GenerateResult> {
    const signal = this.#signal;
    const sent =
      this.#textSystem === undefined
        ? messages
        : [{ role: 'system' as const, content: this.#textSystem }, ...messages.slice(1)];
    const a = await this.deps.provider.generate({
      messages: sent,
      ...(this.#native ? { tools: AGENT_TOOLS } : {}),
      ...(signal ? { signal } : {}),
      onProgress: (p, delta) => {
        this.#on({ type: 'thinking', tokens: p.tokens, elapsedMs: p.elapsedMs });
        if (delta !== '') this.#on({ type: 'text', delta });
      },
    });
    if (a.toolsRefused !== undefined && this.#native) {
      this.#native = false;
      this.#textSystem = chatSystemMessage({
        testCommand: this.deps.testCommand,
        commandTimeoutS: this.deps.config.agent.command_timeout,
        native: false,
        toolsText: agentToolsText(),
      });
      this.#on({
        type: 'notice',
        level: 'warning',
        text: `the model server refused tool calls (${a.toolsRefused}); the model calls tools in text from now on`,
      });
    }
    return a;
  }

  /** One tool call, as the mode allows: read-only mode refuses edits and undoes what commands change. */
  async #execute(action: AgentAction): Promise<ToolResult> {
    this.#on({ type: 'step_started', tool: action.tool, line: actionLine(action) });
    if (this.#c.mode === 'plan' && action.tool === 'edit' && action.command !== 'view')
      return {
        outcome: 'refused',
        observation: `edit refused: read-only mode: files are not changed now. Describe the change instead; the person can switch to code mode (/code).`,
        path: action.path,
      };
    if (action.tool === 'submit') {
      const r = await this.#tools.run(action);
      if (r.submitted === undefined) return r;
      const { submitted, ...rest } = r;
      return {
        ...rest,
        observation:
          submitted.patch === ''
            ? 'There is no change to hand over. Tell the person what you found.'
            : `${r.observation}. The person decides what becomes of it (they can run the tests, make a branch or start a run): tell them what you changed and why.`,
      };
    }
    if (action.tool === 'bash' && this.#c.mode === 'plan') {
      if (this.#change.raw !== null && !Buffer.isBuffer(this.#change.raw))
        return {
          outcome: 'refused',
          observation: `not run: the work tree's change is over policy.max_patch_bytes, so read-only mode cannot set it aside and put it back after the command`,
        };
      let undone = false;
      const r = await this.#discarding(
        this.#signal,
        () => this.#tools.run(action),
        () => void (undone = true),
      );
      return undone
        ? { ...r, observation: `${r.observation}\n(read-only mode: what this command changed in the files was undone)` }
        : r;
    }
    return this.#tools.run(action);
  }

  /**
   * Run `fn`, then put the work tree back to the change it held before when `fn` changed it (even
   * when `fn` was stopped). `onUndone` hears when it had to.
   */
  async #discarding<T>(signal: AbortSignal | undefined, fn: () => Promise<T>, onUndone?: () => void): Promise<T> {
    const before = this.#c.mode === 'plan' ? this.#change.raw : await this.#readChange(signal);
    if (before !== null && !Buffer.isBuffer(before))
      throw new HammerError(
        'USAGE',
        `the work tree's change is ${before.tooLarge} bytes, over policy.max_patch_bytes`,
        {
          hint: 'it cannot be set aside and put back; make it smaller first',
        },
      );
    try {
      return await fn();
    } finally {
      // never with the signal that may have stopped fn: the tree must go back all the same
      const after = await this.#readChange();
      if (!sameChange(before, after)) {
        await this.deps.repo.restore(this.deps.base, before);
        onUndone?.();
      }
    }
  }

  // ---- the change

  async #readChange(signal?: AbortSignal): Promise<RawChange> {
    const { policy } = this.deps.config;
    return this.deps.repo.candidate(this.deps.base, policy.max_patch_bytes, signal);
  }

  /** Read the work tree's change and remember it; with `n`, keep it as exchange n's artifact when it is new. */
  async #captureChange(signal?: AbortSignal, n?: number): Promise<ChangeRecord | null> {
    const raw = await this.#readChange(signal);
    let record: ChangeRecord | null = null;
    if (raw !== null && !Buffer.isBuffer(raw)) record = { bytes: raw.tooLarge, files: [] };
    else if (raw !== null) {
      const sha256 = sha256Hex(raw);
      const previous = this.#change.record;
      if (previous?.sha256 === sha256 && previous.artifact !== undefined) record = previous;
      else {
        const artifact = n === undefined ? undefined : conversationArtifacts.change(n);
        if (artifact !== undefined) await this.deps.store.writeArtifact(this.#c.id, artifact, raw);
        record = {
          bytes: raw.length,
          files: changedFiles(raw.toString('utf8')).slice(0, 1000),
          ...(artifact === undefined ? {} : { artifact, sha256 }),
        };
      }
    }
    this.#change = { raw, record };
    return record;
  }

  /** A recorded change's diff, checked against its sealed hash; null when it was not kept. */
  async #loadChange(record: ChangeRecord): Promise<Buffer | null> {
    if (record.artifact === undefined || record.sha256 === undefined) return null;
    const bytes = await this.deps.store.readArtifact(this.#c.id, record.artifact);
    if (sha256Hex(bytes) !== record.sha256)
      throw new HammerError(
        'STATE_INVALID',
        `${record.artifact} of conversation ${this.#c.id} is not the change that was recorded (its sha256 differs)`,
        { hint: 'the file was changed after hammer-box wrote it; start a new conversation with --new' },
      );
    return bytes;
  }

  // ---- recording

  async #save(): Promise<void> {
    this.#c = await this.deps.store.write({
      ...this.#c,
      messages: this.#trajectory.history.map(toStored),
      updated_at: this.deps.now().toISOString(),
    });
    await this.#writeTranscript();
  }

  async #writeTranscript(): Promise<void> {
    await this.deps.store.writeArtifact(this.#c.id, this.#c.transcript, renderTranscript(this.#c));
  }
}

function sameChange(a: RawChange, b: RawChange): boolean {
  if (a === null || b === null) return a === b;
  if (!Buffer.isBuffer(a) || !Buffer.isBuffer(b)) return false;
  return a.equals(b);
}
