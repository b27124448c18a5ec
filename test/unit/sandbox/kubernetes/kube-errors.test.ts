// What the Kubernetes API answered, as typed errors with what to do.
import { describe, expect, it } from 'vitest';
import { HammerError } from '../../../../src/errors.js';
import { apiAnswer, kubeFailure } from '../../../../src/sandbox/kubernetes/kube-errors.js';

const answer = (code: number, message: string, reason = 'Forbidden') => ({
  code,
  body: JSON.stringify({ kind: 'Status', status: 'Failure', message, reason, code }),
});

describe('kubeFailure', () => {
  it('reads the Status body of an API error', () => {
    expect(apiAnswer(answer(404, 'pods "x" not found', 'NotFound'))).toEqual({
      code: 404,
      reason: 'NotFound',
      message: 'pods "x" not found',
    });
    expect(apiAnswer(new Error('plain'))).toBeNull();
  });

  it('maps a quota or limit range to SANDBOX_QUOTA', () => {
    const quota = kubeFailure(
      answer(
        403,
        'pods "p" is forbidden: exceeded quota: compute, requested: limits.memory=2Gi, used: limits.memory=3Gi, limited: limits.memory=4Gi',
      ),
      'creating pod p',
    );
    expect(quota.code).toBe('SANDBOX_QUOTA');
    expect(quota.message).toContain('exceeded quota: compute');
    expect(
      kubeFailure(
        answer(403, 'pods "p" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi'),
        'x',
      ).code,
    ).toBe('SANDBOX_QUOTA');
  });

  it('maps PodSecurity admission to SANDBOX_HARDENING and other refusals to SANDBOX_FORBIDDEN with the RBAC', () => {
    expect(
      kubeFailure(answer(403, 'pods "p" is forbidden: violates PodSecurity "restricted:latest": ...'), 'x').code,
    ).toBe('SANDBOX_HARDENING');
    const rbac = kubeFailure(
      answer(403, 'pods is forbidden: User "ci" cannot create resource "pods" in namespace "hb"'),
      'creating pod p',
    );
    expect(rbac.code).toBe('SANDBOX_FORBIDDEN');
    expect(rbac.hint).toMatch(/pods \(create, get, list, delete\), pods\/exec/);
  });

  it('maps bad credentials and an unreachable cluster to ENGINE_UNAVAILABLE', () => {
    expect(kubeFailure(answer(401, 'Unauthorized', 'Unauthorized'), 'x').code).toBe('ENGINE_UNAVAILABLE');
    const refused = kubeFailure(
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      }),
      'listing pods',
    );
    expect(refused.code).toBe('ENGINE_UNAVAILABLE');
    expect(refused.message).toContain('ECONNREFUSED');
    expect(kubeFailure(new DOMException('timed out', 'TimeoutError'), 'x').code).toBe('ENGINE_UNAVAILABLE');
  });

  it('keeps typed errors, says ABORTED when the signal fired, and quotes anything else', () => {
    const typed = new HammerError('IMAGE_MISSING', 'm');
    expect(kubeFailure(typed, 'x')).toBe(typed);
    const c = new AbortController();
    c.abort();
    expect(kubeFailure(new Error('boom'), 'x', c.signal).code).toBe('ABORTED');
    const other = kubeFailure(answer(500, 'etcdserver: request timed out', 'InternalError'), 'creating pod p');
    expect(other.code).toBe('SANDBOX_BROKEN');
    expect(other.message).toBe('creating pod p failed: the cluster answered 500: etcdserver: request timed out');
  });
});
