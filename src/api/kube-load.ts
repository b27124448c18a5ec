// Loading the Kubernetes backend (its client library takes a second or two, so only when asked for),
// with a typed error when it cannot load. @kubernetes/client-node 2 asks for undici 8, which needs
// Node 22.19 or later; hammer-box's package-lock pins it to undici 7 (an npm override), which npm
// applies in a checkout but not when hammer-box is installed as a package (it then nests undici 8
// under the library). On an older Node a resolve hook sends the library's undici imports to
// hammer-box's own undici 7 before the library loads, however hammer-box was installed.
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HammerError } from '../errors.js';

/** Whether undici 8 cannot run on this Node (before 22.19), so the library must get undici 7. */
export function needsUndiciRedirect(nodeVersion: string): boolean {
  const [major = 0, minor = 0] = nodeVersion.split('.').map((n) => Number.parseInt(n, 10));
  return major < 22 || (major === 22 && minor < 19);
}

/** The major version of an undici nested under the client library (an installed package), else null. */
function nestedUndiciMajor(): number | null {
  try {
    const entry = fileURLToPath(import.meta.resolve('@kubernetes/client-node'));
    const pkg = join(dirname(dirname(entry)), 'node_modules', 'undici', 'package.json');
    const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? Number.parseInt(version, 10) : null;
  } catch {
    return null;
  }
}

let redirected = false;

/** From now on, `undici` imported by the Kubernetes client library is hammer-box's own (once per process). */
export function redirectUndici(): void {
  if (redirected) return;
  register(new URL('./undici-redirect.js', import.meta.url), {
    data: { target: import.meta.resolve('undici') },
  });
  redirected = true;
}

/** The Kubernetes backend module; ENGINE_UNAVAILABLE saying what to do when it cannot load. */
export async function loadKubernetes(): Promise<typeof import('../sandbox/kubernetes/index.js')> {
  try {
    if (needsUndiciRedirect(process.versions.node) && (nestedUndiciMajor() ?? 0) >= 8) redirectUndici();
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
