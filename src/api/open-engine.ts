// The one place that picks the sandbox backend ([sandbox] engine): the Docker engine always (images
// are built and dependencies set up there), and the sandboxes either on it or on a Kubernetes
// cluster. Above this, nothing knows which backend runs.
import type Dockerode from 'dockerode';
import type { Config } from '../config/schema.js';
import { loadKubernetes } from './kube-load.js';
import { resolveRuntime } from '../loop/runtime.js';
import type { SandboxEngine } from '../sandbox/types.js';
import { kubeImageRef } from './kube-images.js';

/** A verified Docker client and the sandbox engine the config asks for. */
export interface OpenedEngine {
  docker: Dockerode;
  engine: SandboxEngine;
}

/**
 * Reach the Docker engine (and the cluster, for Kubernetes) before any run state exists: an engine
 * whose sandboxes cannot be verified is refused here, not resumed later.
 */
export async function openEngine(env: NodeJS.ProcessEnv, config: Config, signal?: AbortSignal): Promise<OpenedEngine> {
  const { createDockerClient, DockerSandboxEngine, pingEngine, refusePodman } = await import('../sandbox/index.js');
  const docker = createDockerClient(env);
  const sig = signal ? { signal } : {};
  if (config.sandbox.engine === 'kubernetes') {
    const [kube] = await Promise.all([loadKubernetes(), pingEngine(docker, signal)]);
    const api = kube.openKubeApi(config.kubernetes, env);
    const engine = kube.kubeEngine(api, config.kubernetes, {
      imageRef: kubeImageRef(docker, config.kubernetes.registry),
    });
    // the cluster answers, or the run stops before it starts
    await engine.info(sig);
    return { docker, engine };
  }
  await pingEngine(docker, signal);
  const engine = new DockerSandboxEngine({ docker });
  refusePodman(await engine.info(sig));
  return { docker, engine };
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
