// The programmatic API behind `hammer-box gc`: remove the sandboxes of runs that are no longer alive.
import type Dockerode from 'dockerode';
import { resolveConfig } from '../config/resolve.js';
import { loadKubernetes } from './kube-load.js';
import { connectDocker, DockerSandboxEngine, pingEngine, type GcReport } from '../sandbox/index.js';

export type { GcReport } from '../sandbox/index.js';

/** The engine to clean up; by default the one found from `env` as the docker CLI finds it. */
export interface GcOptions {
  env?: NodeJS.ProcessEnv;
  docker?: Dockerode;
  signal?: AbortSignal;
  /** A --config file (for [sandbox] engine and [kubernetes]). */
  configFile?: string;
  /** Config keys set on the command line (--engine, --kube-context). */
  flags?: Record<string, unknown>;
  /** Remove everything of these runs, their owner process alive or not (a run that left a sandbox behind names itself). */
  runIds?: string[];
}

/**
 * Remove what runs whose owner process on this host is gone left: containers and volumes on
 * Docker, or pods and network policies on Kubernetes (there also every pod that ended); or all
 * of `runIds`. Say what went.
 */
export async function gc(options: GcOptions = {}): Promise<GcReport> {
  const env = options.env ?? process.env;
  const sig = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.runIds && options.runIds.length > 0 ? { runIds: options.runIds } : {}),
  };
  if (options.configFile || options.flags) {
    const { config } = await resolveConfig({
      env,
      ...(options.configFile ? { configFile: options.configFile } : {}),
      ...(options.flags ? { flags: options.flags } : {}),
    });
    if (config.sandbox.engine === 'kubernetes') {
      const kube = await loadKubernetes();
      return kube.kubeEngine(kube.openKubeApi(config.kubernetes, env), config.kubernetes).gc(sig);
    }
  }
  let docker = options.docker;
  if (docker) await pingEngine(docker, options.signal);
  else docker = (await connectDocker(env, options.signal)).docker;
  return new DockerSandboxEngine({ docker }).gc(sig);
}
