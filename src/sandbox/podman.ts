// Podman behind its Docker-compatible API. Its container inspect reports the sandbox's hardening in
// other forms than Docker's (measured on rootful Podman 4.3: the dropped capabilities one by one, not
// ALL; ulimits as RLIMIT_NOFILE/RLIMIT_CORE; the workspace volume as a bind; TERM and container= in
// the environment; writable /run and /var/tmp tmpfs mounts hammer-box did not ask for). Until the
// verifier maps each of those forms, runs refuse Podman up front instead of failing in every sandbox.
import { HammerError } from '../errors.js';
import type { EngineInfo } from './types.js';

/** Why runs refuse Podman, for doctor's engine line and the run's error. */
export const PODMAN_REASON =
  "hammer-box does not verify its sandbox hardening on Podman's Docker-compatible API yet (its inspect reports dropped capabilities one by one instead of ALL, ulimits as RLIMIT_*, the workspace volume as a bind, TERM and container= in the environment, and it adds writable /run and /var/tmp mounts)";

/** What to do instead. */
export const PODMAN_HINT =
  'run hammer-box against Docker Engine: install docker.io (Debian, Ubuntu) or Docker CE and point DOCKER_HOST at its socket';

/** SANDBOX_HARDENING when the engine is Podman; nothing otherwise. */
export function refusePodman(info: Pick<EngineInfo, 'product' | 'serverVersion'>): void {
  if (info.product !== 'podman') return;
  throw new HammerError('SANDBOX_HARDENING', `the engine is Podman ${info.serverVersion}: ${PODMAN_REASON}`, {
    hint: PODMAN_HINT,
  });
}
