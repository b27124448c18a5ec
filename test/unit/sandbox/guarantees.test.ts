// A run on an untrusted repository needs a backend that proves "no network".
import { describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { checkNetworkProof } from '../../../src/sandbox/guarantees.js';
import type { SandboxGuarantees } from '../../../src/sandbox/types.js';

const g = (network: SandboxGuarantees['network']): SandboxGuarantees => ({
  backend: 'kubernetes',
  isolation: 'container',
  network,
  networkDetail: 'a probe pod under a deny-all policy still reached the API server',
});

describe('checkNetworkProof', () => {
  it('passes a proven network, trusted or not', () => {
    for (const network of ['none', 'policy'] as const) {
      expect(checkNetworkProof(g(network), false)).toBeNull();
      expect(checkNetworkProof(g(network), true)).toBeNull();
    }
  });

  it('refuses an unproven network for an untrusted repository, saying why and what to do', () => {
    let err: unknown;
    try {
      checkNetworkProof(g('unproven'), false);
    } catch (e) {
      err = e;
    }
    expect(isHammerError(err, 'SANDBOX_NETWORK_UNPROVEN')).toBe(true);
    expect((err as Error).message).toContain('still reached the API server');
    expect((err as { hint: string }).hint).toMatch(/enforces NetworkPolicy.*--trusted-repo/);
  });

  it('lets a trusted repository run there, with a warning', () => {
    expect(checkNetworkProof(g('unproven'), true)).toMatch(/not proven.*trusted_repo/);
  });
});
