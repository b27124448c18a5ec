import { describe, expect, it } from 'vitest';
import { HammerError, isHammerError } from '../../../../src/errors.js';
import { kubeFailure } from '../../../../src/sandbox/kubernetes/kube-errors.js';
import { OutageWatch, outageDelays, throughOutage, unanswered } from '../../../../src/sandbox/kubernetes/outage.js';

const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:6443'), { code: 'ECONNREFUSED' });
const status = (code: number) => Object.assign(new Error(`HTTP ${code}`), { code, body: '{"message":"x"}' });

describe('unanswered', () => {
  it('is a connection that failed or a gateway without its server, never an answer', () => {
    expect(unanswered(refused)).toBe(true);
    expect(unanswered({ cause: { code: 'UND_ERR_SOCKET' } })).toBe(true);
    for (const code of [502, 503, 504]) expect(unanswered(status(code))).toBe(true);
    for (const code of [401, 403, 404, 409, 500]) expect(unanswered(status(code))).toBe(false);
    expect(unanswered(new HammerError('SANDBOX_BROKEN', 'tar exited 2'))).toBe(false);
  });
});

describe('outageDelays', () => {
  it('backs off from 250 ms to 5 s within the budget', () => {
    expect(outageDelays(0)).toEqual([]);
    expect(outageDelays(1_000)).toEqual([250, 500]);
    const minute = outageDelays(60_000);
    expect(minute.slice(0, 6)).toEqual([250, 500, 1000, 2000, 4000, 5000]);
    expect(minute.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60_000);
  });
});

describe('OutageWatch', () => {
  it('gives a server that answered before its budget, and one that never answered none', () => {
    const w = new OutageWatch(60_000);
    expect(w.budget()).toBe(0);
    w.answered();
    expect(w.budget()).toBe(60_000);
  });
});

describe('throughOutage', () => {
  it('tries an unanswered call again, and stops at once on an answer', async () => {
    let calls = 0;
    const ok = await throughOutage(
      () => (++calls < 3 ? Promise.reject(kubeFailure(refused, 'reading a pod')) : Promise.resolve('pod')),
      { budgetMs: 1_000, what: 'reading a pod' },
    );
    expect([ok, calls]).toEqual(['pod', 3]);
    calls = 0;
    const err = await throughOutage(() => (calls++, Promise.reject(kubeFailure(status(403), 'creating a pod'))), {
      budgetMs: 1_000,
      what: 'creating a pod',
    }).catch((e: unknown) => e);
    expect(isHammerError(err, 'SANDBOX_FORBIDDEN')).toBe(true);
    expect(calls).toBe(1);
  });

  it('gives up with the last failure when the budget is spent', async () => {
    let calls = 0;
    const err = await throughOutage(() => (calls++, Promise.reject(kubeFailure(refused, 'listing pods'))), {
      budgetMs: 300,
      what: 'listing pods',
    }).catch((e: unknown) => e);
    expect(isHammerError(err, 'ENGINE_UNAVAILABLE')).toBe(true);
    expect(calls).toBe(2);
  });
});
