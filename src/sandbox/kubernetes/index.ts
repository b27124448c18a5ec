// The Kubernetes backend's public face (imported only when [sandbox] engine = "kubernetes": the
// client library takes a second or two to load).
import type { Logger } from 'pino';
import type { KubernetesConfig } from '../../config/schema.js';
import { KubeApi } from './kube-api.js';
import { KubeSandboxEngine } from './kube-engine.js';
import { seccompProfileOf } from './manifests.js';
import type { ProofStore } from './network-proof.js';

export { KubeApi, type KubeTarget } from './kube-api.js';
export { KubeSandboxEngine, type KubeEngineOptions } from './kube-engine.js';
export { RBAC_HINT, CLUSTER_HINT } from './kube-errors.js';
export { IMAGE_PULL_HINT } from './pod-start.js';
export type { ProofStore } from './network-proof.js';

/** The cluster's API for the config's kubeconfig, context and namespace (CONFIG_INVALID when they do not resolve). */
export function openKubeApi(config: KubernetesConfig, env: NodeJS.ProcessEnv): KubeApi {
  return KubeApi.load(
    {
      ...(config.kubeconfig ? { kubeconfig: config.kubeconfig } : {}),
      ...(config.context ? { context: config.context } : {}),
      ...(config.namespace ? { namespace: config.namespace } : {}),
    },
    env,
    { outageMs: config.outage_retry * 1000 },
  );
}

/** A Kubernetes sandbox engine from the config; `imageRef` maps a local image to what the cluster pulls. */
export function kubeEngine(
  api: KubeApi,
  config: KubernetesConfig,
  options: {
    imageRef?: (image: string, signal?: AbortSignal) => Promise<string>;
    logger?: Logger;
    /** Where network proofs are kept between runs (kept `config.proof_lifetime` seconds). */
    proofs?: ProofStore;
  } = {},
): KubeSandboxEngine {
  return new KubeSandboxEngine({
    api,
    startTimeoutSeconds: config.start_timeout,
    deadlineSeconds: config.pod_deadline,
    imagePullPolicy: config.image_pull_policy,
    seccompProfile: seccompProfileOf(config.seccomp_profile),
    proofLifetimeMs: config.proof_lifetime * 1000,
    podPidsLimit: config.pids_limit,
    ...(options.proofs ? { proofs: options.proofs } : {}),
    ...(options.imageRef ? { imageRef: options.imageRef } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
