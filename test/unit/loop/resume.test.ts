import { describe, expect, it } from 'vitest';
import { givenOverrides, recordModelOverrides, resumableState, resumeRefusal } from '../../../src/loop/resume.js';
import { HammerError } from '../../../src/errors.js';
import { onlyReportLeft, withResumeHint } from '../../../src/loop/resumable.js';
import { RunStateSchema } from '../../../src/state/run-state.js';
import { iteration, makeState } from '../state/make-state.js';

const alive = (): boolean => true;
const dead = (): boolean => false;

describe('resumeRefusal', () => {
  const reported = { report: { status: 'done' as const, started_at: '2026-11-22T14:05:01.000Z', duration_ms: 3 } };

  it('refuses a run that already ended, naming how', () => {
    expect(resumeRefusal(makeState({ status: 'stable', reason: 'tests_pass', phases: reported }), dead, 'h')).toMatch(
      /already ended \(stable, tests_pass\)/,
    );
    expect(
      resumeRefusal(makeState({ status: 'failed', reason: 'max_iterations', phases: reported }), dead, 'h'),
    ).toMatch(/already ended \(failed/);
  });

  it('allows a run that ended but stopped before its report, for the report only', () => {
    const ended = makeState({
      status: 'stable',
      reason: 'tests_pass',
      branch: { name: 'EngineerExternal/x', commit: 'a'.repeat(40) },
    });
    expect(onlyReportLeft(ended)).toBe(true);
    expect(resumeRefusal(ended, dead, 'h')).toBeNull();
    expect(onlyReportLeft({ ...ended, phases: reported })).toBe(false);
    expect(onlyReportLeft(makeState({ status: 'error' }))).toBe(false);
  });

  it('refuses a run that delivered its branch', () => {
    expect(
      resumeRefusal(
        makeState({ status: 'error', branch: { name: 'EngineerExternal/x', commit: 'a'.repeat(40) } }),
        dead,
        'h',
      ),
    ).toMatch(/already delivered/);
  });

  it('refuses a running run whose owner process on this host is alive, and allows it when it is gone', () => {
    const s = makeState({ status: 'running', owner: { pid: 4242, host: 'h' } });
    expect(resumeRefusal(s, alive, 'h')).toMatch(/still running \(process 4242\)/);
    expect(resumeRefusal(s, dead, 'h')).toBeNull();
    // another host's pid says nothing about this machine: the state file is the authority
    expect(resumeRefusal(s, alive, 'other')).toBeNull();
  });

  it('refuses an interrupted run whose process is still cleaning up, and allows it once that is gone', () => {
    const s = makeState({ status: 'interrupted', reason: 'interrupted', owner: { pid: 4242, host: 'h' } });
    expect(resumeRefusal(s, alive, 'h')).toMatch(/still cleaning up .*process 4242/);
    expect(resumeRefusal(s, dead, 'h')).toBeNull();
  });

  it('allows interrupted and broken runs', () => {
    expect(resumeRefusal(makeState({ status: 'interrupted', reason: 'interrupted' }), alive, 'h')).toBeNull();
    expect(resumeRefusal(makeState({ status: 'error', reason: 'error' }), alive, 'h')).toBeNull();
  });
});

describe('resumableState', () => {
  it('drops an unfinished last iteration, clears the end and counts the resume', () => {
    const s = makeState({
      status: 'interrupted',
      reason: 'interrupted',
      reason_detail: 'interrupted by SIGINT',
      sandbox: { container_id: 'c'.repeat(64) },
      iterations: [iteration(1, 'rejected'), iteration(2, null)],
    });
    const r = resumableState(s, new Date('2026-11-22T15:00:00Z'));
    expect(r.status).toBe('running');
    expect(r.reason).toBeNull();
    expect(r.reason_detail).toBeNull();
    expect(r.sandbox).toBeNull();
    expect(r.iterations.map((i) => i.n)).toEqual([1]);
    expect(r.resumed).toBe(1);
    expect(r.owner?.pid).toBe(process.pid);
    expect(resumableState(r, new Date()).resumed).toBe(2);
    expect(RunStateSchema.safeParse(r).success).toBe(true);
  });
});

describe('withResumeHint', () => {
  const lost = new HammerError('ENGINE_UNAVAILABLE', 'exec failed: the Docker engine stopped answering', {
    hint: "run 'make engine'",
  });

  it('adds the command that continues a run that broke before delivering, after the way to fix it', () => {
    const err = withResumeHint(lost, makeState({ status: 'error', reason: 'error' }), '/work/my repo') as HammerError;
    expect(err).toBeInstanceOf(HammerError);
    expect(err.code).toBe('ENGINE_UNAVAILABLE');
    expect(err.message).toBe(lost.message);
    expect(err.hint).toBe(
      `run 'make engine'; then continue with: hammer-box resume ${makeState().run_id} --repo '/work/my repo'`,
    );
    const interrupted = withResumeHint(
      new HammerError('ABORTED', 'interrupted by SIGINT'),
      makeState({ status: 'interrupted', reason: 'interrupted' }),
      '/r',
    ) as HammerError;
    expect(interrupted.hint).toBe(`continue with: hammer-box resume ${makeState().run_id} --repo /r`);
  });

  it('repeats the flags that decided where it ran and its trust: --engine, --kube-context, --trusted-repo', () => {
    const config = { sandbox: { engine: 'kubernetes', trusted_repo: true }, kubernetes: { context: 'prod' } };
    const err = withResumeHint(lost, makeState({ status: 'error', config }), '/r') as HammerError;
    expect(err.hint).toBe(
      `run 'make engine'; then continue with: hammer-box resume ${makeState().run_id} --repo /r --engine kubernetes --kube-context prod --trusted-repo`,
    );
    // an untrusted run on Docker needs none of them
    const plain = withResumeHint(lost, makeState({ status: 'error', config: { sandbox: { engine: 'docker' } } }), '/r');
    expect((plain as HammerError).hint).toBe(
      `run 'make engine'; then continue with: hammer-box resume ${makeState().run_id} --repo /r`,
    );
  });

  it("completes the state store's bare resume command with the run's repository and flags", () => {
    const config = { sandbox: { engine: 'kubernetes', trusted_repo: true } };
    const full = new HammerError('STATE_UNWRITABLE', 'cannot write x: ENOSPC', {
      hint: `free space in /r/.hammer, then continue with: hammer-box resume ${makeState().run_id}`,
    });
    const err = withResumeHint(full, makeState({ status: 'error', config }), '/r') as HammerError;
    expect(err.hint).toBe(
      `free space in /r/.hammer, then continue with: hammer-box resume ${makeState().run_id} --repo /r --engine kubernetes --trusted-repo`,
    );
  });

  it("repeats the run's --config file: resume takes the model and limits from the current configuration", () => {
    const err = withResumeHint(lost, makeState({ status: 'error' }), '/r', '/home/me/my config.toml') as HammerError;
    expect(err.hint).toBe(
      `run 'make engine'; then continue with: hammer-box resume ${makeState().run_id} --repo /r --config '/home/me/my config.toml'`,
    );
  });

  it('leaves the error alone when the run cannot be resumed or already says how', () => {
    const delivered = makeState({ status: 'error', branch: { name: 'EngineerExternal/x', commit: 'a'.repeat(40) } });
    expect(withResumeHint(lost, delivered, '/r')).toBe(lost);
    const unwritable = new HammerError('STATE_UNWRITABLE', 'no space', {
      hint: 'free space, then continue with: hammer-box resume x',
    });
    expect(withResumeHint(unwritable, makeState({ status: 'error' }), '/r')).toBe(unwritable);
    const plain = new Error('boom');
    expect(withResumeHint(plain, makeState({ status: 'error' }), '/r')).toBe(plain);
  });
});

describe('resume with another model', () => {
  const at = new Date('2026-11-23T10:00:00Z');

  it('records --llm-url/--model/--provider in the state, after the earlier ones', () => {
    const first = recordModelOverrides(makeState({ status: 'error' }), { url: 'http://gpu-box:11434' }, at);
    const later = new Date('2026-11-23T11:00:00Z');
    const out = recordModelOverrides(first, { name: 'qwen3:8b', provider: 'openai' }, later);
    expect(out.model_overrides).toEqual([
      { at: at.toISOString(), url: 'http://gpu-box:11434' },
      { at: later.toISOString(), name: 'qwen3:8b', provider: 'openai' },
    ]);
    expect(RunStateSchema.parse(out).model_overrides).toHaveLength(2);
  });

  it('changes nothing without overrides (unset or empty flags count as none)', () => {
    const state = makeState({ status: 'error' });
    expect(recordModelOverrides(state, {}, at)).toBe(state);
    expect(recordModelOverrides(state, { name: '', url: undefined }, at)).toBe(state);
    expect(givenOverrides({ name: 'm', url: undefined })).toEqual({ name: 'm' });
  });

  it('says to start again when the model check stopped the run in setup, before there was anything to resume', () => {
    const err = withResumeHint(
      new HammerError('MODEL_NOT_FOUND', 'no such model', { hint: 'pull it with: ollama pull m' }),
      makeState({ status: 'error', reason: 'error', image: null }),
      '/r',
    ) as HammerError;
    expect(err.hint).toBe('pull it with: ollama pull m; then start the run again (it stopped in setup)');
  });

  it('says a model failure can be continued with another server or model', () => {
    const err = withResumeHint(
      new HammerError('MODEL_UNREACHABLE', 'nothing listens', { hint: 'start it with: ollama serve' }),
      makeState({ status: 'error', reason: 'error' }),
      '/r',
    ) as HammerError;
    expect(err.hint).toBe(
      `start it with: ollama serve; then continue with: hammer-box resume ${makeState().run_id} --repo /r (add --llm-url, --model or --provider to change them)`,
    );
  });
});
