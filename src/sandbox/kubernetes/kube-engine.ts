// The Kubernetes sandbox backend: a pod per sandbox, created under its deny-all NetworkPolicy,
// verified as the API server stored it, waited for with a deadline; gc by label; what it
// guarantees, proven by a probe (network-probe.ts) and kept for a bounded time (network-proof.ts).
import { randomBytes } from 'node:crypto';
import type { V1NetworkPolicy, V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { HammerError, isHammerError, throwIfAborted } from '../../errors.js';
import { GVISOR_RUNTIME } from '../guarantees.js';
import { isDeadRun, pidAlive } from '../gc.js';
import { currentOwner, LABELS, MANAGED_BY, type Owner } from '../labels.js';
import type {
  EngineInfo,
  GcReport,
  GuaranteeOptions,
  Sandbox,
  SandboxEngine,
  SandboxGuarantees,
  SandboxSpec,
} from '../types.js';
import { parseSandboxUser } from '../user.js';
import type { KubeApi } from './kube-api.js';
import { messageOf } from './kube-errors.js';
import { KubeSandbox } from './kube-sandbox.js';
import {
  networkPolicyManifest,
  objectName,
  ownership,
  podManifest,
  SANDBOX_LABEL,
  type PodOptions,
  type SeccompProfile,
} from './manifests.js';
import { probeNetworkPolicy } from './network-probe.js';
import type { ProofStore } from './network-proof.js';
import { ProofKeeper } from './proof-keeper.js';
import { waitForPod } from './pod-wait.js';
import { verifyPod } from './verify-pod.js';

/** Settings of the backend (config `[kubernetes]`) and its dependencies. */
export interface KubeEngineOptions {
  api: KubeApi;
  logger?: Logger;
  owner?: () => Owner;
  /** Seconds a pod may take to run (scheduling, pulling, starting). */
  startTimeoutSeconds: number;
  /** Seconds after which the cluster stops a pod whatever happens. */
  deadlineSeconds: number;
  imagePullPolicy: PodOptions['imagePullPolicy'];
  /** The seccomp profile every sandbox pod asks for and must be admitted with; default RuntimeDefault. */
  seccompProfile?: SeccompProfile;
  /** The reference the cluster pulls for a spec's image (a registry prefix; see api/kube-images.ts); default: as is. */
  imageRef?: (image: string, signal?: AbortSignal) => Promise<string>;
  /** How long a copy into a sandbox may go without progress (default: copy-deadline.ts's COPY_STALL_MS). */
  copyStallMs?: number;
  /** The nodes' podPidsLimit (config `kubernetes.pids_limit`): the pids limit that applies in a pod; 0 or none: unknown. */
  podPidsLimit?: number;
  /** Where network proofs are kept between runs (default: this engine only). */
  proofs?: ProofStore;
  /** How long a kept proof is reused (config `kubernetes.proof_lifetime`; default: this engine's life). */
  proofLifetimeMs?: number;
  now?: () => Date;
}

const MANAGED = `${LABELS.managedBy}=${MANAGED_BY}`;

/** Sandboxes as hardened pods, each under a deny-all NetworkPolicy that owns it. */
export class KubeSandboxEngine implements SandboxEngine {
  readonly kind = 'kubernetes' as const;
  private readonly keeper: ProofKeeper;

  constructor(private readonly o: KubeEngineOptions) {
    this.keeper = new ProofKeeper({
      api: o.api,
      ...(o.proofs ? { proofs: o.proofs } : {}),
      ...(o.proofLifetimeMs !== undefined ? { lifetimeMs: o.proofLifetimeMs } : {}),
      ...(o.now ? { now: o.now } : {}),
      ...(o.logger ? { logger: o.logger } : {}),
    });
  }

  private owner(): Owner {
    return (this.o.owner ?? (() => currentOwner()))();
  }

  private podOptions(): PodOptions {
    return {
      namespace: this.o.api.namespace,
      deadlineSeconds: this.o.deadlineSeconds,
      imagePullPolicy: this.o.imagePullPolicy,
      ...(this.o.seccompProfile ? { seccompProfile: this.o.seccompProfile } : {}),
    };
  }

  /** Create the policy, then the pod it owns; verify the pod as stored; wait until it runs. Anything short is deleted and refused. */
  async create(spec: SandboxSpec, options: { signal?: AbortSignal } = {}): Promise<Sandbox> {
    const { signal } = options;
    const sig = signal ? { signal } : {};
    throwIfAborted(signal, 'creating the sandbox');
    const user = parseSandboxUser(spec.user);
    const image = this.o.imageRef ? await this.o.imageRef(spec.image, signal) : spec.image;
    const asked: SandboxSpec = { ...spec, image };
    const name = objectName(spec.runId, randomBytes(4).toString('hex'));
    const meta = ownership(spec.runId, name, this.owner());
    const api = this.o.api;
    // the creates are not aborted mid-request (an object the server made would have nobody to
    // delete it); an abort takes effect right after each, and everything made so far is deleted
    const policy = await api.createPolicy(networkPolicyManifest(name, { namespace: api.namespace }, meta));
    try {
      throwIfAborted(signal, 'creating the sandbox');
      const uid = policy.metadata?.uid;
      if (!uid) throw new HammerError('SANDBOX_BROKEN', `the cluster gave network policy ${name} no uid`);
      const pod = await api.createPod(podManifest(asked, name, this.podOptions(), meta, { name, uid }));
      const missing = verifyPod(pod, asked, name, this.podOptions());
      if (missing.length > 0)
        throw new HammerError('SANDBOX_HARDENING', `sandbox pod is missing: ${missing.join('; ')}`, {
          hint: 'the cluster changed the pod hammer-box asked for (a mutating admission webhook?); the sandbox is deleted and refused',
        });
      await waitForPod(api, name, {
        timeoutSeconds: this.o.startTimeoutSeconds,
        ...sig,
        ...(this.o.logger ? { logger: this.o.logger } : {}),
      });
      this.o.logger?.debug({ runId: spec.runId, pod: name, namespace: api.namespace }, 'sandbox pod running');
      return new KubeSandbox({
        api,
        pod: name,
        policy: name,
        runId: spec.runId,
        owner: user,
        limits: {
          nofile: spec.limits.nofile,
          ...(this.o.podPidsLimit ? { pods: this.o.podPidsLimit } : {}),
        },
        envKeys: Object.keys(spec.env),
        ...(this.o.copyStallMs ? { copyStallMs: this.o.copyStallMs } : {}),
        ...(this.o.logger ? { logger: this.o.logger } : {}),
      });
    } catch (err) {
      await this.cleanUp(name);
      throw err;
    }
  }

  private async cleanUp(name: string): Promise<void> {
    try {
      await this.o.api.deletePod(name);
      await this.o.api.deletePolicy(name);
    } catch (err) {
      this.o.logger?.warn(
        { err: messageOf(err), pod: name },
        'could not delete a refused sandbox; hammer-box gc --engine kubernetes will',
      );
    }
  }

  /**
   * Delete the pods and policies of runs whose owner process on this host is gone (or all of
   * `runIds`), pods that ended (deadline, eviction) whoever owned them, and policies left without a pod.
   */
  async gc(options: { runIds?: string[]; signal?: AbortSignal } = {}): Promise<GcReport> {
    const { signal } = options;
    const live = {
      host: this.owner().host,
      isPidAlive: pidAlive,
      ...(options.runIds ? { runIds: options.runIds } : {}),
    };
    const [pods, policies] = await Promise.all([
      this.o.api.listPods(MANAGED, signal),
      this.o.api.listPolicies(MANAGED, signal),
    ]);
    const report: GcReport = { containers: [], volumes: [], networks: [] };
    const keptPods = new Set<string>();
    for (const pod of pods) {
      const name = pod.metadata?.name ?? '';
      if (!name) continue;
      if (!isDeadRun(ownerLabels(pod), live) && !podEnded(pod)) {
        keptPods.add(pod.metadata?.labels?.[SANDBOX_LABEL] ?? name);
        continue;
      }
      await this.o.api.deletePod(name, signal);
      report.containers.push(`pod/${name}`);
    }
    for (const p of policies) {
      const name = p.metadata?.name ?? '';
      if (!name) continue;
      const selects = p.metadata?.labels?.[SANDBOX_LABEL] ?? name;
      if (keptPods.has(selects) && !isDeadRun(ownerLabels(p), live)) continue;
      // a policy whose pod is not there yet may belong to a run creating it right now
      if (!isDeadRun(ownerLabels(p), live) && youngerThan(p, 120)) continue;
      await this.o.api.deletePolicy(name, signal);
      report.networks.push(`networkpolicy/${name}`);
    }
    return report;
  }

  /** The cluster: version, platform, RuntimeClasses (gVisor's is the one whose handler is runsc). */
  async info(options: { signal?: AbortSignal } = {}): Promise<EngineInfo> {
    const version = await this.o.api.version(options.signal);
    const classes = await this.o.api.runtimeClasses(options.signal).catch((err: unknown) => {
      if (isHammerError(err, 'SANDBOX_FORBIDDEN')) return [];
      throw err;
    });
    const [os, architecture] = (version.platform ?? '/').split('/');
    const gvisor = classes.find((c) => c.handler === GVISOR_RUNTIME)?.name;
    return {
      product: 'kubernetes',
      serverVersion: version.gitVersion,
      apiVersion: `${version.major}.${version.minor}`,
      os: os ?? '',
      architecture: architecture ?? '',
      runtimes: classes.map((c) => c.name).sort(),
      ...(gvisor ? { gvisorRuntime: gvisor } : {}),
      defaultRuntime: '',
      securityOptions: ['seccomp=RuntimeDefault'],
      rootless: false,
      userns: false,
      cgroupVersion: '',
    };
  }

  /**
   * Isolation from the RuntimeClass's handler; the network from the probe (run with `image`):
   * `policy` only when the cluster was seen to enforce a deny-all policy. A proof of the same facts
   * younger than the proof lifetime is reused (unless `fresh`); one probe at a time per facts.
   */
  async guarantees(options: GuaranteeOptions): Promise<SandboxGuarantees> {
    const { signal } = options;
    let isolation: SandboxGuarantees['isolation'] = 'container';
    if (options.runtime) {
      const classes = await this.o.api.runtimeClasses(signal).catch(() => []);
      const handler = classes.find((c) => c.name === options.runtime)?.handler ?? options.runtime;
      if (handler === GVISOR_RUNTIME) isolation = 'gvisor';
    }
    if (!options.image)
      return {
        backend: 'kubernetes',
        isolation,
        network: 'unproven',
        networkDetail: 'no image to run the network probe with',
      };
    const probeImage = options.image;
    const result = await this.keeper.network(
      async () =>
        probeNetworkPolicy(this.o.api, this.o.imageRef ? await this.o.imageRef(probeImage, signal) : probeImage, {
          pod: this.podOptions(),
          startTimeoutSeconds: this.o.startTimeoutSeconds,
          owner: this.owner(),
          ...(this.o.logger ? { logger: this.o.logger } : {}),
          ...(signal ? { signal } : {}),
        }),
      { ...(options.fresh ? { fresh: true } : {}), ...(signal ? { signal } : {}) },
    );
    return { backend: 'kubernetes', isolation, network: result.network, networkDetail: result.detail };
  }
}

/** The owner values gc judges by: the exact ones from the annotations. */
function ownerLabels(o: V1Pod | V1NetworkPolicy): Record<string, string> {
  return { ...(o.metadata?.labels ?? {}), ...(o.metadata?.annotations ?? {}) };
}

/** A pod that will never run again (ended, failed, past its deadline). */
function podEnded(pod: V1Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

function youngerThan(o: V1NetworkPolicy, seconds: number): boolean {
  const created = o.metadata?.creationTimestamp;
  if (!created) return false;
  return Date.now() - new Date(created).getTime() < seconds * 1000;
}
