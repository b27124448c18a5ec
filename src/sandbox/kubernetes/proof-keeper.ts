// The network proof of a cluster, proven or reused: read what a proof depends on from the cluster,
// reuse a kept proof of the same facts within its lifetime, else prove it (one probe at a time per
// facts in this process) and keep the result. What is reusable is decided in network-proof.ts.
import type { Logger } from 'pino';
import { isHammerError } from '../../errors.js';
import { LABELS, MANAGED_BY } from '../labels.js';
import type { KubeApi } from './kube-api.js';
import { messageOf } from './kube-errors.js';
import { networkPolicyManifest } from './manifests.js';
import { CONNECT_PROBE, type ProbeResult } from './network-probe.js';
import {
  keptProof,
  proofFingerprint,
  reusable,
  reusedDetail,
  type KeptProof,
  type ProofFacts,
  type ProofStore,
} from './network-proof.js';

/** What the keeper needs: the cluster, where proofs are kept, for how long, and a clock. */
export interface ProofKeeperOptions {
  api: KubeApi;
  /** Default: proofs kept by this keeper only. */
  proofs?: ProofStore;
  /** Default: this keeper's life. */
  lifetimeMs?: number;
  now?: () => Date;
  logger?: Logger;
}

/** Proves the network with a probe, or reuses a kept proof of the same facts. */
export class ProofKeeper {
  private readonly proofs: ProofStore;
  private readonly lifetime: number;

  constructor(private readonly o: ProofKeeperOptions) {
    this.proofs = o.proofs ?? memoryProofs();
    this.lifetime = o.lifetimeMs ?? Number.POSITIVE_INFINITY;
  }

  private now(): Date {
    return (this.o.now ?? (() => new Date()))();
  }

  /** What the network is, and how that was known: reused (unless `fresh`), or proven now by `probe`. */
  async network(
    probe: () => Promise<ProbeResult>,
    options: { fresh?: boolean; signal?: AbortSignal } = {},
  ): Promise<ProbeResult> {
    const facts = await this.facts(options.signal);
    const fingerprint = proofFingerprint(facts);
    const keeps = fingerprint !== null && this.lifetime > 0;
    const kept = async (): Promise<KeptProof | null> => {
      if (!keeps || options.fresh) return null;
      const found = await this.proofs.read(fingerprint).catch(() => null);
      return reusable(found, fingerprint, this.now(), this.lifetime) ? found : null;
    };
    const prove = async (): Promise<KeptProof> => {
      const proof = keptProof(fingerprint ?? '0'.repeat(64), facts, await probe(), this.now());
      if (keeps)
        await this.proofs.write(proof).catch((err: unknown) => {
          this.o.logger?.warn(
            { err: messageOf(err) },
            'the network proof could not be kept; the next run proves it again',
          );
        });
      return proof;
    };
    const found = await kept();
    if (found) return { network: found.network, detail: reusedDetail(found, this.now()) };
    const proof =
      !keeps || options.fresh
        ? await prove()
        : // another run of this process may be proving the same facts: wait for its proof
          await this.proofs.once(fingerprint, async () => (await kept()) ?? (await prove()));
    return { network: proof.network, detail: proof.detail };
  }

  /** What a proof depends on, read from the cluster now (the other policies null when they cannot be listed). */
  private async facts(signal?: AbortSignal): Promise<ProofFacts> {
    const api = this.o.api;
    const [version, policies] = await Promise.all([
      api.version(signal),
      api.listPolicies('', signal).catch((err: unknown) => {
        if (isHammerError(err, 'SANDBOX_FORBIDDEN')) return null;
        throw err;
      }),
    ]);
    return {
      server: api.server,
      namespace: api.namespace,
      version: version.gitVersion,
      policyShape: networkPolicyManifest('proof', { namespace: api.namespace }, { labels: {}, annotations: {} }).spec,
      probe: CONNECT_PROBE,
      policies:
        policies === null
          ? null
          : policies
              // hammer-box's own (sandboxes, probes) come and go with runs; only the others add up with ours
              .filter((p) => p.metadata?.labels?.[LABELS.managedBy] !== MANAGED_BY)
              .map((p) => `${p.metadata?.name ?? ''} ${p.metadata?.uid ?? ''} ${p.metadata?.resourceVersion ?? ''}`),
    };
  }
}

/** Proofs kept by one keeper only (no store given). */
function memoryProofs(): ProofStore {
  const kept = new Map<string, KeptProof>();
  const running = new Map<string, Promise<KeptProof>>();
  return {
    read: (fingerprint) => Promise.resolve(kept.get(fingerprint) ?? null),
    write: (proof) => Promise.resolve(void kept.set(proof.fingerprint, proof)),
    once: (fingerprint, prove) => {
      const now = running.get(fingerprint);
      if (now) return now;
      const p = prove().finally(() => running.delete(fingerprint));
      running.set(fingerprint, p);
      return p;
    },
  };
}
