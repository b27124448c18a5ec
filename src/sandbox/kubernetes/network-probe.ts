// Proving that the cluster enforces NetworkPolicy, by trying: a probe pod (no repository code in
// it, only this probe) reaches the API server's service address without a policy, then a deny-all
// policy is put on it, and it must stop reaching it. Only then is the sandbox's network "policy";
// a plugin that does not enforce policies (the probe still connects) or a probe that proves
// nothing (no connection even without a policy) leave it "unproven".
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { currentOwner, type Owner } from '../labels.js';
import { sleep } from '../stream-end.js';
import type { NetworkProof, SandboxSpec } from '../types.js';
import type { KubeApi } from './kube-api.js';
import {
  networkPolicyManifest,
  objectName,
  ownership,
  podManifest,
  PROBE_LABEL,
  type PodOptions,
} from './manifests.js';
import { exitCodeOf, runInPod } from './pod-process.js';
import { waitForPod } from './pod-wait.js';

/** Perl builtins and IO::Socket::INET (in perl-base): exit 0 when a TCP connection to the API service opens within 3 s. */
export const CONNECT_PROBE = [
  'perl',
  '-MIO::Socket::INET',
  '-e',
  'my ($h, $p) = @ENV{qw(KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT)}; exit 3 unless $h && $p; exit(IO::Socket::INET->new(PeerAddr => $h, PeerPort => $p, Proto => "tcp", Timeout => 3) ? 0 : 1)',
];

/** How long a freshly created policy may take to be enforced. */
const ENFORCE_WITHIN_MS = 15_000;

/** The verdict, and one sentence on how it was reached. */
export interface ProbeResult {
  network: Exclude<NetworkProof, 'none'>;
  detail: string;
}

/** Run the probe with `image` (one that has perl: every hammer-box image has); removes what it made. */
export async function probeNetworkPolicy(
  api: KubeApi,
  image: string,
  options: { pod: PodOptions; startTimeoutSeconds: number; owner?: Owner; logger?: Logger; signal?: AbortSignal },
): Promise<ProbeResult> {
  const { signal } = options;
  const sig = signal ? { signal } : {};
  const name = objectName('probe', randomBytes(4).toString('hex'));
  const meta = ownership('network-probe', name, options.owner ?? currentOwner());
  meta.labels[PROBE_LABEL] = 'network';
  const spec: SandboxSpec = {
    image,
    runId: 'network-probe',
    user: '10001:10001',
    env: {},
    limits: {
      memoryBytes: 64 * 1024 * 1024,
      nanoCpus: 1e8,
      pidsLimit: 32,
      tmpBytes: 1024 * 1024,
      workspaceBytes: 1024 * 1024,
      nofile: 256,
      runtime: '',
    },
  };
  const target = { endpoint: api.endpoint, namespace: api.namespace, pod: name };
  const connects = async (): Promise<number | null> => {
    const { end } = await runInPod(target, CONNECT_PROBE, { what: 'probing the network', ...sig });
    return exitCodeOf(end);
  };
  try {
    await api.createPod(podManifest(spec, name, { ...options.pod, deadlineSeconds: 300 }, meta, null), signal);
    await waitForPod(api, name, { timeoutSeconds: options.startTimeoutSeconds, ...sig });
    const before = await connects();
    if (before === 3)
      return {
        network: 'unproven',
        detail: 'the probe pod has no API service address (KUBERNETES_SERVICE_HOST) to try',
      };
    if (before !== 0)
      return {
        network: 'unproven',
        detail:
          'a probe pod could not reach the API server even without a policy, so a refusal under one would prove nothing',
      };
    await api.createPolicy(networkPolicyManifest(name, { namespace: api.namespace }, meta), signal);
    const until = performance.now() + ENFORCE_WITHIN_MS;
    for (;;) {
      const after = await connects();
      if (after !== 0)
        return {
          network: 'policy',
          detail: `a deny-all NetworkPolicy stopped a probe pod from reaching the API server it reached without one (the network plugin enforces policies)`,
        };
      if (performance.now() >= until) break;
      await sleep(1_000);
    }
    return {
      network: 'unproven',
      detail: `the cluster's network plugin does not enforce NetworkPolicy: a probe pod under a deny-all policy still reached the API server after ${ENFORCE_WITHIN_MS / 1000} s`,
    };
  } finally {
    await api
      .deletePod(name)
      .catch((err: unknown) =>
        options.logger?.warn({ err: String(err) }, 'probe pod not deleted; hammer-box gc --engine kubernetes will'),
      );
    await api.deletePolicy(name).catch(() => undefined);
  }
}
