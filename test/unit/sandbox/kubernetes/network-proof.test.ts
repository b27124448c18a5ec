import { describe, expect, it } from 'vitest';
import {
  keptProof,
  proofFingerprint,
  reusable,
  reusedDetail,
  type ProofFacts,
} from '../../../../src/sandbox/kubernetes/network-proof.js';

const facts: ProofFacts = {
  server: 'https://10.0.0.1:6443',
  namespace: 'hb',
  version: 'v1.36.0',
  policyShape: { podSelector: { matchLabels: { 'hammer-box.sandbox': 'proof' } }, policyTypes: ['Ingress', 'Egress'] },
  probe: ['perl', '-e', 'connect'],
  policies: ['allow-dns 1 10', 'team-default 2 20'],
};
const T = new Date('2026-11-29T10:00:00Z');

describe('proofFingerprint', () => {
  it('changes with every fact a proof depends on, not with the order of the policies', () => {
    const base = proofFingerprint(facts);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(proofFingerprint({ ...facts, policies: [...facts.policies!].reverse() })).toBe(base);
    for (const changed of [
      { server: 'https://10.0.0.2:6443' },
      { namespace: 'other' },
      { version: 'v1.36.1' },
      { policyShape: { podSelector: {} } },
      { probe: ['perl', '-e', 'other'] },
      // a policy added, or one changed (its resourceVersion), may allow what the deny-all denies
      { policies: [...facts.policies!, 'allow-all 3 30'] },
      { policies: ['allow-dns 1 11', 'team-default 2 20'] },
    ])
      expect(proofFingerprint({ ...facts, ...changed })).not.toBe(base);
  });

  it("is none when the namespace's policies could not be listed: nothing is kept or reused", () => {
    expect(proofFingerprint({ ...facts, policies: null })).toBeNull();
  });
});

describe('reusable', () => {
  const fp = proofFingerprint(facts)!;
  const kept = keptProof(fp, facts, { network: 'policy', detail: 'a deny-all policy stopped the probe' }, T);
  const at = (minutes: number) => new Date(T.getTime() + minutes * 60_000);

  it('reuses a proof of the same facts within its lifetime, and never after', () => {
    expect(reusable(kept, fp, at(0), 3_600_000)).toBe(true);
    expect(reusable(kept, fp, at(59), 3_600_000)).toBe(true);
    expect(reusable(kept, fp, at(60), 3_600_000)).toBe(false);
    expect(reusable(kept, fp, at(1), 0)).toBe(false);
  });

  it('never reuses another fingerprint, nothing, or a proof from the future', () => {
    expect(reusable(kept, 'f'.repeat(64), at(1), 3_600_000)).toBe(false);
    expect(reusable(null, fp, at(1), 3_600_000)).toBe(false);
    expect(reusable(kept, fp, at(-5), 3_600_000)).toBe(false);
  });

  it('keeps what it proved and what it depended on, and says when', () => {
    expect(kept).toEqual({
      fingerprint: fp,
      network: 'policy',
      detail: 'a deny-all policy stopped the probe',
      proved_at: '2026-11-29T10:00:00.000Z',
      depends: { server: 'https://10.0.0.1:6443', namespace: 'hb', version: 'v1.36.0', other_policies: 2 },
    });
    expect(reusedDetail(kept, at(12))).toBe(
      "a deny-all policy stopped the probe (proven 12 min ago and kept; 'hammer-box doctor --engine kubernetes' proves it again)",
    );
  });
});
