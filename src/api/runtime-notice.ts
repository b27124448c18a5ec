// What a run says about the OCI runtime its sandboxes get (pure): the refusal, before anything is
// written, of a `[sandbox] runtime` the engine does not offer, naming the platform and what to do; and
// the one-line notice of a run that keeps the engine's default runtime (runc) where gVisor could be used.
import { HammerError } from '../errors.js';
import { AUTO_RUNTIME, GVISOR } from '../loop/runtime.js';
import type { EngineInfo } from '../sandbox/types.js';

/** Where gVisor's install guide is. */
const GVISOR_GUIDE = 'https://gvisor.dev/docs/user_guide/install/';

/** The engine's facts these messages use. */
export type RuntimeFacts = Pick<EngineInfo, 'runtimes' | 'defaultRuntime' | 'os' | 'platform'>;

/** "Docker Desktop", "Colima", or "the engine" when it runs on no product hammer-box knows. */
export function platformName(info: Pick<EngineInfo, 'platform'>): string {
  return info.platform ?? 'the engine';
}

/** The runtimes an engine offers, the default marked. */
export function offeredRuntimes(info: Pick<EngineInfo, 'runtimes' | 'defaultRuntime'>): string {
  return info.runtimes.map((r) => (r === info.defaultRuntime ? `${r} (default)` : r)).join(', ') || '(none listed)';
}

/**
 * SANDBOX_HARDENING when `[sandbox] runtime` names a runtime the engine does not offer (every sandbox
 * is created with it and verified to have it, so no run could start); null when it does, or when
 * the setting is "" or "auto", which never fail.
 */
export function missingRuntime(configured: string, info: RuntimeFacts): HammerError | null {
  if (configured === '' || configured === AUTO_RUNTIME || info.runtimes.includes(configured)) return null;
  const where = platformName(info);
  const fallback = `set [sandbox] runtime = "" (${info.defaultRuntime || 'runc'}, the engine's default) or "${AUTO_RUNTIME}" (gVisor wherever an engine offers it, the default elsewhere)`;
  if (configured !== GVISOR)
    return new HammerError(
      'SANDBOX_HARDENING',
      `[sandbox] runtime is "${configured}", but ${where} offers only ${offeredRuntimes(info)}`,
      { hint: `register ${configured} as a runtime of the engine, or ${fallback}` },
    );
  const why =
    info.platform === 'Docker Desktop'
      ? 'Docker Desktop has no gVisor: its engine runs in a VM hammer-box cannot add runsc to'
      : info.platform
        ? `${info.platform}'s engine does not offer gVisor`
        : 'the engine does not offer gVisor';
  const get =
    info.platform === 'Docker Desktop'
      ? `run hammer-box against a Linux Docker Engine with gVisor registered ('make gvisor' as root on Debian or Ubuntu; ${GVISOR_GUIDE})`
      : info.platform
        ? `install gVisor in ${info.platform}'s Linux VM and register runsc as a runtime of its engine (${GVISOR_GUIDE})`
        : `install gVisor and register runsc as a runtime of the engine ('make gvisor' as root on Debian or Ubuntu; ${GVISOR_GUIDE})`;
  return new HammerError(
    'SANDBOX_HARDENING',
    `[sandbox] runtime is "${GVISOR}" (gVisor), but ${why}; it offers only ${offeredRuntimes(info)}`,
    { hint: `${get}, or ${fallback}` },
  );
}

/**
 * The one line a run shows when its sandboxes keep the engine's default runtime (runc, a container on
 * the host's kernel) because of the setting or because gVisor is not offered; null when they run
 * with gVisor or with a runtime named in the config.
 */
export function runtimeNotice(configured: string, info: RuntimeFacts): string | null {
  const runc = info.defaultRuntime || 'runc';
  const offered = info.runtimes.includes(GVISOR);
  if (configured === AUTO_RUNTIME) {
    if (offered) return null;
    return `sandboxes run with ${runc}, the engine's default: [sandbox] runtime = "${AUTO_RUNTIME}" found no gVisor (${GVISOR}) on ${platformName(info)}`;
  }
  if (configured !== '') return null;
  return offered
    ? `sandboxes run with ${runc}, the engine's default; gVisor (${GVISOR}) is offered: [sandbox] runtime = "${AUTO_RUNTIME}" uses it`
    : `sandboxes run with ${runc}, the engine's default (no gVisor on ${platformName(info)}; see [sandbox] runtime)`;
}
