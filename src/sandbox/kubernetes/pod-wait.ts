// Waiting for a pod to run, with a deadline: polled, and every failure on the way told as the
// cluster reported it (pod-start.ts decides; this only asks and waits).
import type { Logger } from 'pino';
import { HammerError, throwIfAborted } from '../../errors.js';
import { sleep } from '../stream-end.js';
import type { KubeApi } from './kube-api.js';
import { podStartState, startTimeoutError, type PodStart } from './pod-start.js';

/** How often a starting pod is looked at. */
const POLL_MS = 500;

/** Resolve once pod `name` runs; reject with the cluster's reason when it cannot, or at `timeoutSeconds`. */
export async function waitForPod(
  api: KubeApi,
  name: string,
  options: { timeoutSeconds: number; signal?: AbortSignal; logger?: Logger },
): Promise<void> {
  const deadline = performance.now() + options.timeoutSeconds * 1000;
  let last: PodStart & { kind: 'pending' } = { kind: 'pending', stage: 'scheduling', why: 'created' };
  for (let look = 0; ; look++) {
    throwIfAborted(options.signal, 'starting the sandbox pod');
    const pod = await api.readPod(name, options.signal);
    if (!pod) throw new HammerError('SANDBOX_BROKEN', `the sandbox pod ${name} was deleted while it started`);
    // events cost a list call: read them only once the pod is not running at the first looks
    const events = look >= 2 ? await api.podEvents(name, options.signal).catch(() => []) : [];
    const state = podStartState(pod, events);
    if (state.kind === 'running') return;
    if (state.kind === 'failed') throw state.error;
    if (state.why !== last.why)
      options.logger?.debug({ pod: name, stage: state.stage, why: state.why }, 'sandbox pod starting');
    last = state;
    if (performance.now() >= deadline) throw startTimeoutError(last, options.timeoutSeconds);
    await sleep(POLL_MS);
  }
}
