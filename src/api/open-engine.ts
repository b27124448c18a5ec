// The one place that picks the sandbox backend ([sandbox] engine): the Docker engine always (images
// are built and dependencies set up there), and the sandboxes either on it or on a Kubernetes
// cluster. Above this, nothing knows which backend runs.
import type Dockerode from 'dockerode';
import type { Config } from '../config/schema.js';
import { loadKubernetes } from './kube-load.js';
import { resolveRuntime } from '../loop/runtime.js';
import type { EngineInfo, SandboxEngine } from '../sandbox/types.js';
import { kubeImageRef } from './kube-images.js';
import { checkOpenedEngine, engineLine } from './engine-notices.js';
import { networkProofStore } from './network-proofs.js';
import type { ProofStore } from '../sandbox/kubernetes/network-proof.js';

/** A verified Docker client, the sandbox engine the config asks for, and what a run says about them. */
export interface OpenedEngine {
  docker: Dockerode;
  engine: SandboxEngine;
  /** The Docker engine's facts (images are built there whichever backend runs the sandboxes). */
  info: EngineInfo;
  /** The lines a run shows once it started: which engine and why (verbose), the runtime kept. */
  notices: string[];
}

/**
 * Reach the Docker engine, found as the docker CLI finds it (and the cluster, for Kubernetes),
 * before any run state exists: an engine whose sandboxes cannot be verified (Podman), or that lacks
 * the configured runtime, is refused here, not resumed later.
 */
export async function openEngine(
  env: NodeJS.ProcessEnv,
  config: Config,
  verbose: boolean,
  signal?: AbortSignal,
  /** Where Kubernetes network proofs are kept (a batch shares one between its attempts); default: the user's file. */
  proofs?: ProofStore,
): Promise<OpenedEngine> {
  const { connectDocker, describeEndpoint, DockerSandboxEngine } = await import('../sandbox/index.js');
  const sig = signal ? { signal } : {};
  const { docker, endpoint } = await connectDocker(env, signal);
  const dockerEngine = new DockerSandboxEngine({ docker });
  const where = { platform: endpoint.platform, described: describeEndpoint(endpoint) };
  if (config.sandbox.engine === 'kubernetes') {
    const [kube, answered] = await Promise.all([loadKubernetes(), dockerEngine.info(sig)]);
    const api = kube.openKubeApi(config.kubernetes, env);
    const engine = kube.kubeEngine(api, config.kubernetes, {
      imageRef: kubeImageRef(docker, config.kubernetes.registry),
      proofs: proofs ?? networkProofStore(env),
    });
    // the cluster answers, or the run stops before it starts
    await engine.info(sig);
    const info = answered.platform || !where.platform ? answered : { ...answered, platform: where.platform };
    const notices = verbose ? [`${engineLine(info, where.described)} (images); sandboxes on Kubernetes`] : [];
    return { docker, engine, info, notices };
  }
  const { info, notices } = checkOpenedEngine(await dockerEngine.info(sig), where, config, verbose);
  return { docker, engine: dockerEngine, info, notices };
}

/**
 * What the backend guarantees for sandboxes of `image`, held against the repository's trust: throws
 * SANDBOX_NETWORK_UNPROVEN for an untrusted repository on a backend that cannot prove "no network";
 * returns the warning to show when a trusted one runs there anyway, else null.
 */
export async function checkGuarantees(
  engine: SandboxEngine,
  config: Config,
  image: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const { checkNetworkProof } = await import('../sandbox/guarantees.js');
  const runtime = await resolveRuntime(config.sandbox.runtime, engine, signal);
  const g = await engine.guarantees({ runtime, image, ...(signal ? { signal } : {}) });
  return checkNetworkProof(g, config.sandbox.trusted_repo);
}
