// The checks `doctor` reports, built from facts already gathered (pure: no engine, no network).
import type { ResolvedConfig } from '../config/resolve.js';
import { HammerError } from '../errors.js';
import type { ModelCheck } from '../llm/index.js';
import { AUTO_RUNTIME, GVISOR } from '../loop/runtime.js';
import type { EngineInfo } from '../sandbox/types.js';
import { PODMAN_HINT, PODMAN_REASON } from '../sandbox/podman.js';
import { missingRuntime } from './runtime-notice.js';

/** How to get gVisor: the install guide names the steps for each engine host. */
const GVISOR_HINT = 'install gVisor and register runsc as a runtime of the engine';

/** How one check came out: `warn` never fails doctor, `fail` means a run would not work. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One line of the doctor's report; `hint` is the next step when the status is not ok. */
export interface DoctorCheck {
  name: string;
  status: CheckStatus;
  detail: string;
  hint?: string;
}

/** The whole report: `ok` is false when any check failed. */
export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
  /** What the engine said about itself, when it answered. */
  engine: EngineInfo | null;
}

/** A check, leaving out an empty hint. */
export function check(name: string, status: CheckStatus, detail: string, hint?: string): DoctorCheck {
  return hint ? { name, status, detail, hint } : { name, status, detail };
}

/** A failed check from a typed error (its message and hint); anything else is a bug and is rethrown. */
export function failedCheck(name: string, err: unknown): DoctorCheck {
  if (!(err instanceof HammerError) || err.code === 'ABORTED') throw err;
  return check(name, 'fail', err.message, err.hint);
}

/** The report for a list of checks. */
export function doctorReport(checks: DoctorCheck[], engine: EngineInfo | null): DoctorReport {
  return { ok: checks.every((c) => c.status !== 'fail'), checks, engine };
}

/** The configuration resolved: where it came from, and what it points at. */
export function configCheck(resolved: ResolvedConfig): DoctorCheck {
  const sources = [...new Set(resolved.sources.values())];
  const m = resolved.config.model;
  const s = resolved.config.sandbox;
  const image = s.image ? `image ${s.image}` : `toolchain ${s.toolchain}`;
  return check(
    'config',
    'ok',
    `${m.provider} ${m.name} at ${m.url}, ${image} (from ${sources.join(', ') || 'defaults'})`,
  );
}

/** The engine answered: version, API version, the product it runs in, OS/architecture, and where it is and why that one. */
export function engineCheck(info: EngineInfo, address: string): DoctorCheck {
  const version = info.serverVersion || 'unknown version';
  const api = info.apiVersion ? ` (API ${info.apiVersion})` : '';
  if (info.product === 'podman')
    return check('engine', 'fail', `Podman ${version}${api} at ${address}: ${PODMAN_REASON}`, PODMAN_HINT);
  const on = info.platform ? ` on ${info.platform}` : '';
  return check(
    'engine',
    'ok',
    `Docker ${version}${api}${on}, ${info.os || '?'}/${info.architecture || '?'} at ${address}`,
  );
}

/** The engine's security options, by name ("name=seccomp,profile=default" gives seccomp -> {profile: default}). */
export function securityOptionMap(options: string[]): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const option of options) {
    const props: Record<string, string> = {};
    for (const part of option.split(',')) {
      const eq = part.indexOf('=');
      if (eq > 0) props[part.slice(0, eq)] = part.slice(eq + 1);
    }
    // Old engines list bare names ("seccomp", "apparmor").
    out.set(props.name ?? option, props);
  }
  return out;
}

/** Seccomp, AppArmor/SELinux and user namespaces, as the engine reports them. */
export function securityChecks(info: EngineInfo): DoctorCheck[] {
  const opts = securityOptionMap(info.securityOptions);
  const seccomp = opts.get('seccomp');
  const checks: DoctorCheck[] = [];
  if (!seccomp) {
    checks.push(
      check(
        'seccomp',
        'warn',
        'the engine filters no system calls (no seccomp)',
        'use a Docker engine built with seccomp support (the default on Linux distributions)',
      ),
    );
  } else if (seccomp.profile === 'unconfined') {
    checks.push(
      check(
        'seccomp',
        'warn',
        "the engine's default seccomp profile is unconfined",
        'remove the seccomp-profile=unconfined setting from the daemon configuration',
      ),
    );
  } else {
    checks.push(check('seccomp', 'ok', `profile ${seccomp.profile ?? 'default'}`));
  }
  const mac = ['apparmor', 'selinux'].filter((n) => opts.has(n));
  checks.push(
    mac.length > 0
      ? check('AppArmor/SELinux', 'ok', mac.map((n) => (n === 'apparmor' ? 'AppArmor' : 'SELinux')).join(', '))
      : check(
          'AppArmor/SELinux',
          'warn',
          'neither is enabled on the engine: the sandbox rests on dropped capabilities, seccomp, no-new-privileges and a non-root user',
          `enable AppArmor (Debian, Ubuntu) or SELinux (Fedora, RHEL) on the engine's host, or register gVisor (${GVISOR}) with the engine, which [sandbox] runtime = "${AUTO_RUNTIME}" then uses`,
        ),
  );
  const userns = info.rootless ? 'rootless engine' : info.userns ? 'userns-remap on' : '';
  checks.push(
    check(
      'user namespaces',
      'ok',
      userns
        ? `${userns}: sandbox uids map to unprivileged host uids`
        : 'rootless: no, userns-remap: no (the sandbox user is non-root on the host too)',
    ),
  );
  return checks;
}

/** The OCI runtimes the engine offers, gVisor among them or not, and which one sandboxes get. */
export function runtimeCheck(info: EngineInfo, configured: string): DoctorCheck {
  const offered =
    info.runtimes.map((r) => (r === info.defaultRuntime ? `${r} (default)` : r)).join(', ') || '(none listed)';
  const hasGvisor = info.runtimes.includes(GVISOR);
  const fallback = info.defaultRuntime || 'the engine default';
  if (configured === AUTO_RUNTIME) {
    if (hasGvisor)
      return check(
        'runtime',
        'ok',
        `sandboxes run with gVisor (${GVISOR}) ([sandbox] runtime = "${AUTO_RUNTIME}"); the engine offers ${offered}`,
      );
    return check(
      'runtime',
      'warn',
      `gVisor (${GVISOR}) is not offered, so sandboxes run with ${fallback} and share the host kernel; the engine offers ${offered}`,
      `${GVISOR_HINT} (https://gvisor.dev/docs/user_guide/install/)`,
    );
  }
  if (configured) {
    const name = configured === GVISOR ? `gVisor (${GVISOR})` : configured;
    // The sandbox is created with exactly this runtime and verified to have it: a run cannot start.
    const missing = missingRuntime(configured, info);
    if (missing) return check('runtime', 'fail', missing.message, missing.hint);
    return check('runtime', 'ok', `sandboxes run with ${name}; the engine offers ${offered}`);
  }
  if (hasGvisor) {
    return check(
      'runtime',
      'ok',
      `sandboxes run with ${fallback} ([sandbox] runtime = ""); gVisor (${GVISOR}) is offered but not used: set [sandbox] runtime = "${AUTO_RUNTIME}" to use it; the engine offers ${offered}`,
    );
  }
  return check(
    'runtime',
    'ok',
    `sandboxes run with ${fallback}; gVisor (${GVISOR}) is not offered, so sandboxes share the host kernel; the engine offers ${offered}`,
  );
}

/** The cgroup version the limits (memory, pids, CPU) are enforced with. */
export function cgroupCheck(info: EngineInfo): DoctorCheck {
  if (info.cgroupVersion === '1' || info.cgroupVersion === '2') {
    return check('cgroup', 'ok', `cgroup v${info.cgroupVersion}`);
  }
  return check(
    'cgroup',
    'warn',
    'the engine does not say which cgroup version it uses',
    'memory, pids and CPU limits are verified on every sandbox; a run stops if the engine did not apply them',
  );
}

/** The model server and model, from the provider's check(); its detail already names the next step. */
export function modelCheck(result: ModelCheck): DoctorCheck {
  return check('model', result.reachable && result.modelPresent ? 'ok' : 'fail', result.detail);
}
