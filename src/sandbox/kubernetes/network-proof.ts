// The network proof, remembered (pure): what a probe proved about a namespace (network-probe.ts),
// kept with when it was proven and everything it depended on, and reused for a bounded time. A
// proof is reused only while its fingerprint matches: the API server, the namespace, the server's
// version, the deny-all policy's shape, the probe itself, and every other NetworkPolicy of the
// namespace (policies add up: one that allows what ours denies would undo the proof).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { NetworkProof } from '../types.js';

/** What a proof depended on, as seen before it is used. */
export interface ProofFacts {
  server: string;
  namespace: string;
  /** The API server's gitVersion. */
  version: string;
  /** The deny-all policy's spec as hammer-box creates it (its shape, not a sandbox's name). */
  policyShape: unknown;
  /** The probe's command. */
  probe: readonly string[];
  /** The namespace's other NetworkPolicies: "name uid resourceVersion", or null when they could not be listed. */
  policies: string[] | null;
}

/** A kept proof (one entry of the store). */
export const KeptProofSchema = z.strictObject({
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  network: z.enum(['policy', 'unproven']),
  detail: z.string().max(2000),
  proved_at: z.iso.datetime({ offset: true }),
  /** What it depended on, for people (the fingerprint is what is compared). */
  depends: z.strictObject({
    server: z.string(),
    namespace: z.string(),
    version: z.string(),
    other_policies: z.number().int().min(0),
  }),
});
export type KeptProof = z.infer<typeof KeptProofSchema>;

/** Where proofs are kept between runs (a file in the user's state directory; see api/network-proofs.ts). */
export interface ProofStore {
  /** The kept proof with this fingerprint, or null. */
  read(fingerprint: string): Promise<KeptProof | null>;
  /** Keep a proof (replacing one with the same fingerprint). */
  write(proof: KeptProof): Promise<void>;
  /** One proof at a time per fingerprint in this process: a second asker waits for the first one's result. */
  once(fingerprint: string, prove: () => Promise<KeptProof>): Promise<KeptProof>;
}

/** The fingerprint of the facts, or null when they are not all known (then nothing is kept or reused). */
export function proofFingerprint(f: ProofFacts): string | null {
  if (f.policies === null) return null;
  const text = JSON.stringify([f.server, f.namespace, f.version, f.policyShape, f.probe, [...f.policies].sort()]);
  return createHash('sha256').update(text).digest('hex');
}

/** A proof of these facts, proven now. */
export function keptProof(
  fingerprint: string,
  facts: ProofFacts,
  result: { network: Exclude<NetworkProof, 'none'>; detail: string },
  now: Date,
): KeptProof {
  return {
    fingerprint,
    network: result.network,
    detail: result.detail,
    proved_at: now.toISOString(),
    depends: {
      server: facts.server,
      namespace: facts.namespace,
      version: facts.version,
      other_policies: facts.policies?.length ?? 0,
    },
  };
}

/** True when `kept` proves `fingerprint` and is younger than `lifetimeMs` (a proof from the future is not). */
export function reusable(kept: KeptProof | null, fingerprint: string, now: Date, lifetimeMs: number): boolean {
  if (kept === null || kept.fingerprint !== fingerprint) return false;
  const age = now.getTime() - new Date(kept.proved_at).getTime();
  return age >= 0 && age < lifetimeMs;
}

/** The detail of a reused proof: what it proved, and when. */
export function reusedDetail(kept: KeptProof, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - new Date(kept.proved_at).getTime()) / 60_000));
  return `${kept.detail} (proven ${minutes === 0 ? 'less than a minute' : `${minutes} min`} ago and kept; 'hammer-box doctor --engine kubernetes' proves it again)`;
}
