import { describe, expect, it, vi } from 'vitest';
import { faultClock, parseFault } from '../../../src/loop/fault.js';
import { iterationDate } from '../../../src/loop/iteration.js';
import { iteration, makeState } from '../state/make-state.js';

describe('HAMMER_FAULT', () => {
  it('reads <signal>@<point> for the four signals it may send', () => {
    expect(parseFault('SIGKILL@deliver:ref')).toEqual({ signal: 'SIGKILL', point: 'deliver:ref' });
    expect(parseFault('SIGINT@update_state')).toEqual({ signal: 'SIGINT', point: 'update_state' });
    expect(parseFault('SIGTERM@prepare')).toEqual({ signal: 'SIGTERM', point: 'prepare' });
    expect(parseFault('SIGSTOP@deliver:name')).toEqual({ signal: 'SIGSTOP', point: 'deliver:name' });
  });

  it('ignores anything else: a fault hook never fails a run by itself', () => {
    for (const v of [
      undefined,
      '',
      'SIGKILL',
      '@deliver',
      'SIGHUP@deliver',
      'SIGKILL@deliver; rm -rf /',
      'sigkill@deliver',
    ])
      expect(parseFault(v), String(v)).toBeUndefined();
  });
});

describe('faultPointHandled', () => {
  it('resolves only after the SIGINT listener has run, so the abort check right after it sees the signal', async () => {
    vi.stubEnv('HAMMER_FAULT', 'SIGINT@deliver:name');
    vi.resetModules();
    const { faultPointHandled } = await import('../../../src/loop/fault.js');
    const controller = new AbortController();
    const onSignal = (): void => controller.abort();
    process.on('SIGINT', onSignal);
    try {
      await faultPointHandled('other:point');
      expect(controller.signal.aborted).toBe(false);
      await faultPointHandled('deliver:name');
      expect(controller.signal.aborted).toBe(true);
    } finally {
      process.off('SIGINT', onSignal);
      vi.unstubAllEnvs();
    }
  });
});

describe('HAMMER_FAULT_CLOCK', () => {
  it('stops the clock at a UTC instant', () => {
    const now = faultClock('2026-11-24T00:28:51Z');
    expect(now?.().toISOString()).toBe('2026-11-24T00:28:51.000Z');
    expect(now?.().getTime()).toBe(now?.().getTime());
  });

  it('leaves the real clock for anything else', () => {
    for (const v of [undefined, '', 'now', '2026-11-24', '2026-11-24T00:28:51+01:00', '2026-13-45T99:99:99Z'])
      expect(faultClock(v), String(v)).toBeUndefined();
  });
});

describe('iterationDate', () => {
  it("dates an iteration's commit by the iteration's start, so resume rebuilds the same commit", () => {
    const state = makeState({
      iterations: [iteration(1, 'applied'), { ...iteration(2, null), started_at: '2026-11-22T14:07:09.250Z' }],
    });
    expect(iterationDate(state, 2).toISOString()).toBe('2026-11-22T14:07:09.250Z');
    expect(iterationDate(state, 1).toISOString()).toBe(state.iterations[0]!.started_at);
  });
});
