// The programmatic API behind `hammer-box gc`: remove the sandboxes of runs that are no longer alive.
import type Dockerode from 'dockerode';
import { connectDocker, DockerSandboxEngine, pingEngine, type GcReport } from '../sandbox/index.js';

export type { GcReport } from '../sandbox/index.js';

/** The engine to clean up; by default the one found from `env` as the docker CLI finds it. */
export interface GcOptions {
  env?: NodeJS.ProcessEnv;
  docker?: Dockerode;
  signal?: AbortSignal;
}

/** Remove containers and volumes of runs whose owner process on this host is gone; say what went. */
export async function gc(options: GcOptions = {}): Promise<GcReport> {
  let docker = options.docker;
  if (docker) await pingEngine(docker, options.signal);
  else docker = (await connectDocker(options.env ?? process.env, options.signal)).docker;
  return new DockerSandboxEngine({ docker }).gc(options.signal ? { signal: options.signal } : {});
}
