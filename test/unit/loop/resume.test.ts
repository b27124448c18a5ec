import { describe, expect, it } from 'vitest';
import { resumableState, resumeRefusal } from '../../../src/loop/resume.js';
import { RunStateSchema } from '../../../src/state/run-state.js';
import { iteration, makeState } from '../state/make-state.js';

const alive = (): boolean => true;
const dead = (): boolean => false;

describe('resumeRefusal', () => {
  it('refuses a run that already ended, naming how', () => {
    expect(resumeRefusal(makeState({ status: 'stable', reason: 'tests_pass' }), dead, 'h')).toMatch(/already ended \(stable, tests_pass\)/);
    expect(resumeRefusal(makeState({ status: 'failed', reason: 'max_iterations' }), dead, 'h')).toMatch(/already ended \(failed/);
  });

  it('refuses a run that delivered its branch', () => {
    expect(resumeRefusal(makeState({ status: 'error', branch: { name: 'EngineerExternal/x', commit: 'a'.repeat(40) } }), dead, 'h')).toMatch(/already delivered/);
  });

  it('refuses a running run whose owner process on this host is alive, and allows it when it is gone', () => {
    const s = makeState({ status: 'running', owner: { pid: 4242, host: 'h' } });
    expect(resumeRefusal(s, alive, 'h')).toMatch(/still running \(process 4242\)/);
    expect(resumeRefusal(s, dead, 'h')).toBeNull();
    // another host's pid says nothing about this machine: the state file is the authority
    expect(resumeRefusal(s, alive, 'other')).toBeNull();
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
