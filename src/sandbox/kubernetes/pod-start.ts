// Reading a starting pod, pure: is it running, still on its way (and what the cluster says about
// it), or never going to run; and the error for a pod that did not start by its deadline.
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { HammerError } from '../../errors.js';
import { KEEPER_REFUSED } from './keeper.js';
import { CONTAINER } from './manifests.js';

/** Where a starting pod stands. */
export type PodStart =
  | { kind: 'running' }
  /** Not yet; `why` is what the cluster says (scheduling, pulling, a warning event), `stage` where it is. */
  | { kind: 'pending'; stage: 'scheduling' | 'pulling' | 'starting'; why: string }
  | { kind: 'failed'; error: HammerError };

/** What to do when the cluster cannot get the image. */
export const IMAGE_PULL_HINT =
  "the cluster must reach the image: push it with 'hammer-box images push --registry <host/prefix>' and set [kubernetes] registry to the same, or load it into every node's containerd (docker save <image> | ctr -n k8s.io images import -); see docs/kubernetes.md";

const FATAL_WAITING = new Set(['ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull']);
const FATAL_PULL =
  /not found|manifest unknown|pull access denied|unauthorized|denied|no such host|repository does not exist/i;

/** The newest Warning event's message (what the kubelet or scheduler last complained about). */
function lastWarning(events: readonly CoreV1Event[]): string {
  const warnings = events.filter((e) => e.type === 'Warning' && e.message);
  const last = warnings[warnings.length - 1];
  return last ? `${last.reason ?? 'Warning'}: ${last.message ?? ''}` : '';
}

/** Where the pod stands, from its status and its events. */
export function podStartState(pod: V1Pod, events: readonly CoreV1Event[] = []): PodStart {
  const status = pod.status;
  const image = pod.spec?.containers.find((c) => c.name === CONTAINER)?.image ?? 'the image';
  const cs = status?.containerStatuses?.find((c) => c.name === CONTAINER);
  const terminated = cs?.state?.terminated ?? (status?.phase === 'Failed' ? cs?.lastState?.terminated : undefined);
  if (terminated) {
    const code = terminated.exitCode;
    if (code === 127)
      return failed(
        'IMAGE_CONTRACT',
        `image ${image} cannot run the sandbox's keeper: it has no perl (the Kubernetes backend needs perl-base)`,
        'use a hammer-box toolchain image, or add perl to your image',
      );
    if (code === KEEPER_REFUSED)
      return failed(
        'SANDBOX_HARDENING',
        'the sandbox keeper could not make itself non-dumpable in the pod, so code in the sandbox could reach it',
        'the container runtime refused prctl(PR_SET_DUMPABLE); check the seccomp profile of the node',
      );
    return failed(
      'SANDBOX_BROKEN',
      `the sandbox pod's container stopped right after it started: ${terminated.reason ?? 'exit'} ${code}${terminated.message ? `: ${terminated.message}` : ''}`,
    );
  }
  if (status?.phase === 'Failed' || status?.phase === 'Succeeded')
    return failed(
      'SANDBOX_BROKEN',
      `the sandbox pod ended before it ran: ${status.reason ?? status.phase}${status.message ? `: ${status.message}` : ''}`,
    );
  const waiting = cs?.state?.waiting;
  if (waiting?.reason) {
    const said = `${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`;
    if (
      FATAL_WAITING.has(waiting.reason) ||
      (waiting.reason === 'ErrImagePull' && FATAL_PULL.test(waiting.message ?? ''))
    )
      return failed('SANDBOX_IMAGE_PULL', `the cluster cannot pull ${image}: ${said}`, IMAGE_PULL_HINT);
    if (waiting.reason === 'CreateContainerConfigError' || waiting.reason === 'CreateContainerError')
      return failed('SANDBOX_BROKEN', `the cluster cannot create the sandbox container: ${said}`);
    if (waiting.reason === 'RunContainerError' || waiting.reason === 'StartError')
      return failed('SANDBOX_BROKEN', `the cluster cannot start the sandbox container: ${said}`);
  }
  if (cs?.state?.running && status?.phase === 'Running') return { kind: 'running' };
  const scheduled = status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (!scheduled || scheduled.status !== 'True') {
    const why =
      scheduled?.message || lastWarning(events) || (scheduled?.reason ? scheduled.reason : 'waiting for the scheduler');
    return { kind: 'pending', stage: 'scheduling', why };
  }
  if (
    waiting?.reason === 'ErrImagePull' ||
    (events.some((e) => e.reason === 'Pulling') && !events.some((e) => e.reason === 'Pulled'))
  )
    return { kind: 'pending', stage: 'pulling', why: waiting?.message || `pulling ${image}` };
  return { kind: 'pending', stage: 'starting', why: lastWarning(events) || waiting?.reason || 'starting' };
}

/** The error for a pod still not running at its deadline, saying what the cluster last reported. */
export function startTimeoutError(last: PodStart & { kind: 'pending' }, seconds: number): HammerError {
  const said = `after ${seconds} s: ${last.why}`;
  if (last.stage === 'scheduling')
    return new HammerError('SANDBOX_UNSCHEDULABLE', `no node took the sandbox pod ${said}`, {
      hint: 'lower [sandbox] memory or cpus, wait for other runs to end, or add nodes; raise [kubernetes] start_timeout to wait longer',
    });
  if (last.stage === 'pulling')
    return new HammerError('SANDBOX_IMAGE_PULL', `the sandbox image was still being pulled ${said}`, {
      hint: `${IMAGE_PULL_HINT}; or raise [kubernetes] start_timeout`,
    });
  return new HammerError('SANDBOX_BROKEN', `the sandbox pod did not start ${said}`, {
    hint: 'kubectl describe pod shows what the cluster says; raise [kubernetes] start_timeout to wait longer',
  });
}

function failed(code: HammerError['code'], message: string, hint?: string): PodStart {
  return { kind: 'failed', error: new HammerError(code, message, hint ? { hint } : {}) };
}

/** Why a running sandbox's pod stopped (null while its container runs): out of memory, deadline, eviction, removal. */
export function podStopped(pod: V1Pod | null): string | null {
  if (!pod) return 'its pod was deleted';
  if (pod.metadata?.deletionTimestamp) return 'its pod is being deleted';
  const cs = pod.status?.containerStatuses?.find((c) => c.name === CONTAINER);
  const t = cs?.state?.terminated;
  if (t)
    return t.reason === 'OOMKilled'
      ? 'it ran out of memory (sandbox.memory, which the memory-backed workspace and /tmp count in)'
      : `its container exited with code ${t.exitCode}${t.reason ? ` (${t.reason})` : ''}`;
  if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') {
    const reason = pod.status.reason ?? pod.status.phase;
    if (reason === 'DeadlineExceeded') return 'its pod reached its deadline ([kubernetes] pod_deadline)';
    return `its pod ended: ${reason}${pod.status.message ? `: ${pod.status.message}` : ''}`;
  }
  return null;
}
