// Recording phases: every phase is timed, emitted as events, recorded in the state, and the state
// file is rewritten atomically after it.
import type { Logger } from '../log.js';
import type { IterationPhase, PhaseRecord, RunPhase, RunState } from '../state/run-state.js';
import type { RunStore } from '../state/store.js';
import { finishRun, recordIterationPhase, recordRunPhase } from '../state/transitions.js';
import type { LoopEmitter } from './events.js';
import { faultPoint } from './fault.js';

/** Holds the current state of one run and saves it after every change. */
export class RunRecorder {
  constructor(
    public state: RunState,
    private readonly store: RunStore,
    private readonly emit: LoopEmitter,
    private readonly now: () => Date,
    readonly logger: Logger,
  ) {}

  /** Writes started and not awaited yet (a phase recorded with `write: 'behind'`). */
  private behind: Promise<void> | undefined;

  /** Replace the state (through a pure transition) and write it. */
  async update(change: (s: RunState, now: Date) => RunState): Promise<RunState> {
    this.change(change);
    await this.writeNow();
    return this.state;
  }

  /** The last prompt this process built, so the next one is compared with it without reading it back. */
  lastPrompt: { n: number; text: string } | undefined;

  /**
   * Write an artifact of the run. `behind`: started and not awaited; the next state write lands
   * after it (the store writes a run's files in call order) and the next flush waits for it.
   */
  async artifact(name: string, content: string | Uint8Array, options: { behind?: boolean } = {}): Promise<void> {
    const write = this.store.writeArtifact(this.state.run_id, name, content).then(() => undefined);
    if (!options.behind) return write;
    this.leaveBehind(write);
  }

  /** Wait until every write left behind is on disk; the first that failed is thrown here. */
  async flush(): Promise<void> {
    const behind = this.behind;
    this.behind = undefined;
    await behind;
  }

  // write the state and wait for it and for every write left behind before it
  private async writeNow(): Promise<void> {
    const write = this.store.write(this.state);
    write.catch(() => undefined); // awaited below, after the writes before it
    await this.flush();
    await write;
  }

  // the store writes in call order, so a write started now lands before any later one
  private writeBehind(): void {
    this.leaveBehind(this.store.write(this.state));
  }

  private leaveBehind(write: Promise<void>): void {
    write.catch(() => undefined); // thrown by the next flush
    const before = this.behind;
    this.behind = before ? before.then(() => write) : write;
    this.behind.catch(() => undefined);
  }

  /**
   * Record `interrupted` the moment `signal` aborts, before the cleanup the abort starts: a cleanup
   * that runs out of its grace time (a loaded machine, a slow engine) still leaves the state saying
   * so. A run that goes on to finish anyway (its branch already made) records its real end over it.
   * Returns the function that stops listening.
   */
  interruptOn(signal: AbortSignal | undefined): () => void {
    if (!signal) return () => undefined;
    const record = (): void => {
      void this.update((s, now) =>
        s.status === 'running'
          ? finishRun(s, { status: 'interrupted', reason: 'interrupted', detail: 'interrupted; cleaning up' }, now)
          : s,
      ).catch((err: unknown) => this.logger.warn({ err }, 'recording the interruption failed'));
    };
    if (signal.aborted) {
      record();
      return () => undefined;
    }
    signal.addEventListener('abort', record, { once: true });
    return () => signal.removeEventListener('abort', record);
  }

  /**
   * Replace the state and start writing it without waiting (the next write, or `flush`, waits for
   * it): for records made while the work goes on (an agent's turns and steps).
   */
  changeBehind(change: (s: RunState, now: Date) => RunState): RunState {
    this.change(change);
    this.writeBehind();
    return this.state;
  }

  /** Replace the state in memory only; the next phase record writes it. */
  change(change: (s: RunState, now: Date) => RunState): RunState {
    this.state = change(this.state, this.now());
    return this.state;
  }

  /**
   * Record phases that were timed elsewhere (the stages of one combined sandbox exec, which all end
   * when it returns), then write the state once (`behind`: started, not awaited, as for phase).
   */
  async recordPhases(
    iteration: number,
    phases: { phase: IterationPhase; startedAt: Date; durationMs: number; status?: PhaseRecord['status'] }[],
    options: { behind?: boolean } = {},
  ): Promise<void> {
    const run_id = this.state.run_id;
    for (const p of phases) {
      faultPoint(p.phase);
      const duration_ms = Math.round(p.durationMs);
      const status = p.status ?? 'done';
      this.emit({ type: 'phase_started', run_id, at: p.startedAt.toISOString(), iteration, phase: p.phase });
      this.emit({
        type: 'phase_finished',
        run_id,
        at: new Date(p.startedAt.getTime() + duration_ms).toISOString(),
        iteration,
        phase: p.phase,
        status,
        duration_ms,
      });
      this.logger.child({ phase: p.phase, iteration }).info({ status, duration_ms }, 'phase finished');
      this.change((s, now) =>
        recordIterationPhase(
          s,
          iteration,
          p.phase,
          { status, started_at: p.startedAt.toISOString(), duration_ms },
          now,
        ),
      );
    }
    if (options.behind) this.writeBehind();
    else await this.writeNow();
  }

  /** Record one phase timed elsewhere and write the state. */
  recordPhase(
    phase: IterationPhase,
    iteration: number,
    startedAt: Date,
    durationMs: number,
    status: PhaseRecord['status'] = 'done',
  ): Promise<void> {
    return this.recordPhases(iteration, [{ phase, startedAt, durationMs, status }]);
  }

  /** Run one phase of iteration `iteration` (or of the run when null), recording it done or failed. */
  async phase<T>(
    phase: IterationPhase | RunPhase,
    iteration: number | null,
    fn: () => Promise<T>,
    /**
     * false: the phase's record stays in memory until the next write (one that follows at once);
     * 'behind': its write starts and is not awaited (the next write, or `flush`, waits for it).
     */
    options: { write?: boolean | 'behind' } = {},
  ): Promise<T> {
    const started = this.now();
    const t0 = performance.now();
    const run_id = this.state.run_id;
    this.emit({ type: 'phase_started', run_id, at: started.toISOString(), iteration, phase });
    const log = this.logger.child({ phase, ...(iteration === null ? {} : { iteration }) });
    log.debug('phase started');
    let status: PhaseRecord['status'] = 'done';
    let detail: string | undefined;
    try {
      faultPoint(phase);
      return await fn();
    } catch (err) {
      status = 'failed';
      detail = err instanceof Error ? err.message.slice(0, 500) : String(err);
      throw err;
    } finally {
      const duration_ms = Math.round(performance.now() - t0);
      const record: PhaseRecord = {
        status,
        started_at: started.toISOString(),
        duration_ms,
        ...(detail ? { detail } : {}),
      };
      log.info({ status, duration_ms }, 'phase finished');
      this.emit({
        type: 'phase_finished',
        run_id,
        at: this.now().toISOString(),
        iteration,
        phase,
        status,
        duration_ms,
      });
      const change = (s: RunState, now: Date): RunState =>
        iteration === null
          ? recordRunPhase(s, phase as RunPhase, record, now)
          : recordIterationPhase(s, iteration, phase as IterationPhase, record, now);
      if (options.write === false && status === 'done') this.change(change);
      else if (options.write === 'behind' && status === 'done') {
        this.change(change);
        this.writeBehind();
      } else await this.update(change);
    }
  }
}
