// Deciding on what a backend guarantees (pure): a run on an untrusted repository needs a sandbox
// whose network the backend can prove is none.
import { HammerError } from '../errors.js';
import type { SandboxGuarantees } from './types.js';

/** The OCI runtime (and the usual RuntimeClass handler) of gVisor. */
export const GVISOR_RUNTIME = 'runsc';

/** What to do about `sandbox.trusted_repo`, for the refusal's hint. */
const TRUST_HINT =
  'on Kubernetes, use a CNI that enforces NetworkPolicy (Calico, Cilium, kube-router, ...) and run \'hammer-box doctor --engine kubernetes\'; or use the Docker engine ([sandbox] engine = "docker"); only for a repository you trust, pass --trusted-repo (or set [sandbox] trusted_repo = true in your own config) to run without that proof';

/**
 * Refuse a backend that cannot prove the sandbox has no network, unless the user trusts the
 * repository; returns a warning to record when it was trusted without proof, else null.
 */
export function checkNetworkProof(g: SandboxGuarantees, trusted: boolean): string | null {
  if (g.network !== 'unproven') return null;
  if (!trusted)
    throw new HammerError(
      'SANDBOX_NETWORK_UNPROVEN',
      `the ${g.backend} backend cannot prove the sandbox has no network (${g.networkDetail}), and the repository is not trusted`,
      { hint: TRUST_HINT },
    );
  return `the sandbox's network is not proven to be none (${g.networkDetail}); running anyway because the repository is trusted (sandbox.trusted_repo)`;
}
