// A starting pod as the cluster reports it: running, on its way, or never going to run, and why.
import { describe, expect, it } from 'vitest';
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { podStartState, podStopped, startTimeoutError } from '../../../../src/sandbox/kubernetes/pod-start.js';

const pod = (status: NonNullable<V1Pod['status']>): V1Pod => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'sandbox', image: 'hammer-box/python:abc' }] },
  status,
});
const waiting = (reason: string, message = '') =>
  pod({
    phase: 'Pending',
    conditions: [{ type: 'PodScheduled', status: 'True' }],
    containerStatuses: [
      {
        name: 'sandbox',
        image: '',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: { waiting: { reason, message } },
      },
    ],
  });
const event = (reason: string, message: string, type = 'Warning'): CoreV1Event => ({
  reason,
  message,
  type,
  involvedObject: {},
  metadata: {},
});

describe('podStartState', () => {
  it('is running once its container runs', () => {
    const p = pod({
      phase: 'Running',
      containerStatuses: [
        { name: 'sandbox', image: '', imageID: '', ready: true, restartCount: 0, state: { running: {} } },
      ],
    });
    expect(podStartState(p)).toEqual({ kind: 'running' });
  });

  it('reports an image the cluster cannot pull as SANDBOX_IMAGE_PULL, with how to get it there', () => {
    for (const s of [
      waiting('ImagePullBackOff', 'Back-off pulling image "hammer-box/python:abc"'),
      waiting('ErrImagePull', 'failed to resolve reference "docker.io/hammer-box/python:abc": pull access denied'),
      waiting('ErrImageNeverPull', 'Container image "x" is not present with pull policy of Never'),
    ]) {
      const r = podStartState(s);
      expect(r.kind).toBe('failed');
      if (r.kind !== 'failed') continue;
      expect(r.error.code).toBe('SANDBOX_IMAGE_PULL');
      expect(r.error.message).toContain('hammer-box/python:abc');
      expect(r.error.hint).toMatch(/images push --registry.*ctr -n k8s.io images import/);
    }
    // a pull that may still work is waited for
    expect(podStartState(waiting('ErrImagePull', 'i/o timeout'))).toMatchObject({ kind: 'pending', stage: 'pulling' });
  });

  it('reports scheduling problems while it waits, and a deadline as SANDBOX_UNSCHEDULABLE', () => {
    const p = pod({
      phase: 'Pending',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: '0/1 nodes are available: 1 Insufficient memory.',
        },
      ],
    });
    const r = podStartState(p);
    expect(r).toEqual({ kind: 'pending', stage: 'scheduling', why: '0/1 nodes are available: 1 Insufficient memory.' });
    if (r.kind !== 'pending') return;
    const err = startTimeoutError(r, 300);
    expect(err.code).toBe('SANDBOX_UNSCHEDULABLE');
    expect(err.message).toBe(
      'no node took the sandbox pod after 300 s: 0/1 nodes are available: 1 Insufficient memory.',
    );
  });

  it('quotes the newest warning event while it starts', () => {
    const p = waiting('ContainerCreating');
    const r = podStartState(p, [event('FailedCreatePodSandBox', 'failed to setup network for sandbox: plugin failed')]);
    expect(r).toEqual({
      kind: 'pending',
      stage: 'starting',
      why: 'FailedCreatePodSandBox: failed to setup network for sandbox: plugin failed',
    });
    if (r.kind === 'pending') expect(startTimeoutError(r, 10).code).toBe('SANDBOX_BROKEN');
  });

  it('reads a keeper that died as what it means', () => {
    const died = (exitCode: number) =>
      pod({
        phase: 'Failed',
        containerStatuses: [
          {
            name: 'sandbox',
            image: '',
            imageID: '',
            ready: false,
            restartCount: 0,
            state: { terminated: { exitCode, reason: 'Error' } },
          },
        ],
      });
    const noPerl = podStartState(died(127));
    expect(noPerl.kind === 'failed' && noPerl.error.code).toBe('IMAGE_CONTRACT');
    const dumpable = podStartState(died(4));
    expect(dumpable.kind === 'failed' && dumpable.error.code).toBe('SANDBOX_HARDENING');
    const config = podStartState(
      waiting('CreateContainerConfigError', 'container has runAsNonRoot and image will run as root'),
    );
    expect(config.kind === 'failed' && config.error.message).toContain('runAsNonRoot');
  });
});

describe('podStopped', () => {
  it('says why a running sandbox stopped, or null while it runs', () => {
    expect(podStopped(null)).toBe('its pod was deleted');
    const running = pod({
      phase: 'Running',
      containerStatuses: [
        { name: 'sandbox', image: '', imageID: '', ready: true, restartCount: 0, state: { running: {} } },
      ],
    });
    expect(podStopped(running)).toBeNull();
    expect(podStopped(pod({ phase: 'Failed', reason: 'DeadlineExceeded' }))).toMatch(/deadline/);
    const oom = pod({
      phase: 'Failed',
      containerStatuses: [
        {
          name: 'sandbox',
          image: '',
          imageID: '',
          ready: false,
          restartCount: 0,
          state: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
        },
      ],
    });
    expect(podStopped(oom)).toMatch(/out of memory/);
    expect(
      podStopped(pod({ phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' })),
    ).toBe('its pod ended: Evicted: The node was low on resource: memory.');
  });
});
