// The programmatic API behind `hammer-box gc`: remove the sandboxes of runs that are no longer alive.
import type Dockerode from 'dockerode';
import { createDockerClient, DockerSandboxEngine, pingEngine, type GcReport } from '../sandbox/index.js';

export type { GcReport } from '../sandbox/index.js';

/** The engine to clean up; by default the one DOCKER_HOST (or the default socket) in `env` names. */
export interface GcOptions {
  env?: NodeJS.ProcessEnv;
  docker?: Dockerode;
  signal?: AbortSignal;
}

/** Remove containers and volumes of runs whose owner process on this host is gone; say what went. */
export async function gc(options: GcOptions = {}): Promise<GcReport> {
  const docker = options.docker ?? createDockerClient(options.env ?? process.env);
  await pingEngine(docker, options.signal);
  return new DockerSandboxEngine({ docker }).gc(options.signal ? { signal: options.signal } : {});
}
