// Loading the Kubernetes backend (its client library takes a second or two, so only when asked for),
// with a typed error when it cannot load: @kubernetes/client-node 2 asks for undici 8, which needs
// Node 22.19 or later; hammer-box's own package-lock pins it to undici 7 (an npm override), which
// npm applies in a checkout but not when hammer-box is installed as a package.
import { HammerError } from '../errors.js';

/** The Kubernetes backend module; ENGINE_UNAVAILABLE saying what to do when it cannot load. */
export async function loadKubernetes(): Promise<typeof import('../sandbox/kubernetes/index.js')> {
  try {
    return await import('../sandbox/kubernetes/index.js');
  } catch (err) {
    throw new HammerError(
      'ENGINE_UNAVAILABLE',
      `the Kubernetes client library cannot load on Node ${process.versions.node}: ${(err instanceof Error ? err.message : String(err)).split('\n')[0] ?? ''}`,
      {
        hint: 'run hammer-box on Node 22.19 or later, or from a checkout (npm ci there pins the client library to the undici 7 that runs on Node 20)',
        cause: err,
      },
    );
  }
}
