// doctor's report, built from engine facts and model checks (pure), and how the CLI renders it.
import { describe, expect, it } from 'vitest';
import {
  cgroupCheck,
  configCheck,
  doctorReport,
  engineCheck,
  failedCheck,
  modelCheck,
  runtimeCheck,
  securityChecks,
  securityOptionMap,
  type DoctorCheck,
} from '../../../src/api/doctor-checks.js';
import { doctorExitCode, renderDoctorReport } from '../../../src/cli/commands/doctor.js';
import { resolveConfig } from '../../../src/config/resolve.js';
import { HammerError } from '../../../src/errors.js';
import { parseEngineInfo } from '../../../src/sandbox/engine-info.js';
import { refusePodman } from '../../../src/sandbox/podman.js';

/** Engine facts as parseEngineInfo makes them from a `docker info` answer. */
function engine(info: Record<string, unknown> = {}, version: Record<string, unknown> = {}) {
  return parseEngineInfo(
    {
      OSType: 'linux',
      Architecture: 'x86_64',
      Runtimes: { runc: {} },
      DefaultRuntime: 'runc',
      SecurityOptions: ['name=seccomp,profile=default'],
      CgroupVersion: '2',
      ...info,
    },
    { Version: '24.0.7', ApiVersion: '1.43', Os: 'linux', Arch: 'amd64', ...version },
  );
}

const byName = (checks: DoctorCheck[], name: string): DoctorCheck => {
  const found = checks.find((c) => c.name === name);
  if (!found) throw new Error(`no check ${name} in ${checks.map((c) => c.name).join(', ')}`);
  return found;
};

describe('engine checks', () => {
  it('names the engine version, API version, platform and address', () => {
    expect(engineCheck(engine(), 'the default socket')).toEqual({
      name: 'engine',
      status: 'ok',
      detail: 'Docker 24.0.7 (API 1.43), linux/amd64 at the default socket',
    });
  });

  it('FAILs on Podman, saying why runs refuse it and what to use instead', () => {
    const podman = engine({}, { Version: '4.3.1', ApiVersion: '1.41', Components: [{ Name: 'Podman Engine' }] });
    const c = engineCheck(podman, 'unix:///run/podman/podman.sock');
    expect(c.status).toBe('fail');
    expect(c.detail).toMatch(
      /^Podman 4\.3\.1 \(API 1\.41\) at unix:\/\/\/run\/podman\/podman\.sock: hammer-box does not verify/,
    );
    expect(c.detail).toContain('dropped capabilities one by one instead of ALL');
    expect(c.hint).toMatch(/^run hammer-box against Docker Engine/);
    expect(c.hint).not.toContain('resume');
    expect(() => refusePodman(podman)).toThrow(/the engine is Podman 4\.3\.1: hammer-box does not verify/);
    expect(() => refusePodman(engine())).not.toThrow();
  });

  it('reads security options in both the name=... form and the bare form of old engines', () => {
    const map = securityOptionMap(['name=seccomp,profile=/etc/docker/seccomp.json', 'apparmor', 'name=rootless']);
    expect(map.get('seccomp')).toEqual({ name: 'seccomp', profile: '/etc/docker/seccomp.json' });
    expect(map.has('apparmor')).toBe(true);
    expect(map.has('rootless')).toBe(true);
  });

  it('is ok with seccomp and AppArmor, and says which user-namespace mode the engine is in', () => {
    const checks = securityChecks(
      engine({ SecurityOptions: ['name=apparmor', 'name=seccomp,profile=builtin', 'name=rootless'] }),
    );
    expect(byName(checks, 'seccomp')).toMatchObject({ status: 'ok', detail: 'profile builtin' });
    expect(byName(checks, 'AppArmor/SELinux')).toMatchObject({ status: 'ok', detail: 'AppArmor' });
    expect(byName(checks, 'user namespaces')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('rootless engine'),
    });
    const remapped = securityChecks(
      engine({ SecurityOptions: ['name=seccomp,profile=default', 'name=selinux', 'name=userns'] }),
    );
    expect(byName(remapped, 'AppArmor/SELinux').detail).toBe('SELinux');
    expect(byName(remapped, 'user namespaces').detail).toContain('userns-remap on');
    const plain = securityChecks(engine());
    expect(byName(plain, 'user namespaces').detail).toBe(
      'rootless: no, userns-remap: no (the sandbox user is non-root on the host too)',
    );
  });

  it('warns, with the next step, when the engine filters no syscalls or has no AppArmor/SELinux', () => {
    const none = securityChecks(engine({ SecurityOptions: [] }));
    expect(byName(none, 'seccomp')).toMatchObject({ status: 'warn', hint: expect.stringContaining('seccomp support') });
    expect(byName(none, 'AppArmor/SELinux')).toMatchObject({ status: 'warn', hint: expect.stringContaining('runsc') });
    const unconfined = securityChecks(engine({ SecurityOptions: ['name=seccomp,profile=unconfined'] }));
    expect(byName(unconfined, 'seccomp')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('unconfined'),
    });
  });

  it('lists the runtimes and says whether gVisor is offered and used', () => {
    const withGvisor = engine({ Runtimes: { runc: {}, runsc: {} } });
    expect(runtimeCheck(withGvisor, 'auto')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('sandboxes run with gVisor (runsc) ([sandbox] runtime = "auto")'),
    });
    expect(runtimeCheck(withGvisor, '')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('gVisor (runsc) is offered but not used'),
    });
    expect(runtimeCheck(withGvisor, '').detail).toContain('runc (default), runsc');
    expect(runtimeCheck(withGvisor, 'runsc')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('sandboxes run with gVisor (runsc)'),
    });
    expect(runtimeCheck(engine(), '')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('gVisor (runsc) is not offered'),
    });
  });

  it('warns, with the next step, when "auto" finds no gVisor', () => {
    const c = runtimeCheck(engine(), 'auto');
    expect(c).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining(
        'gVisor (runsc) is not offered, so sandboxes run with runc and share the host kernel',
      ),
    });
    expect(c.hint).toContain('install gVisor and register runsc');
    expect(c.hint).not.toMatch(/\bmake\b/);
  });

  it('fails when the configured runtime is not offered, since every sandbox is created with it', () => {
    const c = runtimeCheck(engine(), 'runsc');
    expect(c.status).toBe('fail');
    expect(c.detail).toBe(
      '[sandbox] runtime is "runsc" (gVisor), but the engine does not offer gVisor; it offers only runc (default)',
    );
    expect(c.hint).toContain('gvisor.dev');
    expect(c.hint).toContain('or set [sandbox] runtime = "" (runc, the engine\'s default) or "auto"');
    expect(runtimeCheck(engine(), 'kata')).toMatchObject({
      detail: '[sandbox] runtime is "kata", but the engine offers only runc (default)',
      hint: expect.stringMatching(/^register kata as a runtime of the engine, or set \[sandbox\] runtime = ""/),
    });
  });

  it('names Docker Desktop, which has no gVisor, and what to do instead', () => {
    const desktop = { ...engine(), platform: 'Docker Desktop' };
    const c = runtimeCheck(desktop, 'runsc');
    expect(c.status).toBe('fail');
    expect(c.detail).toMatch(/^\[sandbox\] runtime is "runsc" \(gVisor\), but Docker Desktop has no gVisor/);
    expect(c.hint).toMatch(/^run hammer-box against a Linux Docker Engine with gVisor registered/);
  });

  it('reports the cgroup version, and warns when the engine does not say', () => {
    expect(cgroupCheck(engine({ CgroupVersion: '1' }))).toMatchObject({ status: 'ok', detail: 'cgroup v1' });
    expect(cgroupCheck(engine({ CgroupVersion: '2' })).detail).toBe('cgroup v2');
    expect(cgroupCheck(engine({ CgroupVersion: null })).status).toBe('warn');
  });
});

describe('model and config checks', () => {
  it('passes only when the server answers and has the model, keeping its detail (the next step is in it)', () => {
    expect(modelCheck({ reachable: true, modelPresent: true, detail: 'Ollama at http://h has m' })).toEqual({
      name: 'model',
      status: 'ok',
      detail: 'Ollama at http://h has m',
    });
    const missing = modelCheck({
      reachable: true,
      modelPresent: false,
      detail: 'Ollama at http://h does not have m; pull it with: ollama pull m',
    });
    expect(missing).toMatchObject({ status: 'fail', detail: expect.stringContaining('ollama pull m') });
    expect(modelCheck({ reachable: false, modelPresent: false, detail: 'x' }).status).toBe('fail');
  });

  it('says which layers the config came from and what it points at', async () => {
    const resolved = await resolveConfig({ env: { HAMMER_MODEL: 'tiny:1b', HAMMER_LLM_URL: 'http://127.0.0.1:9' } });
    const c = configCheck(resolved);
    expect(c.status).toBe('ok');
    expect(c.detail).toMatch(
      /^ollama tiny:1b at http:\/\/127\.0\.0\.1:9, toolchain python \(from .*default\.toml, environment\)$/,
    );
  });

  it('turns typed errors into failed checks with their hint, and lets interrupts and bugs through', () => {
    const err = new HammerError('ENGINE_UNAVAILABLE', 'no Docker engine answers', { hint: "run 'make engine'" });
    expect(failedCheck('engine', err)).toEqual({
      name: 'engine',
      status: 'fail',
      detail: 'no Docker engine answers',
      hint: "run 'make engine'",
    });
    expect(failedCheck('engine', new HammerError('IMAGE_MISSING', 'gone'))).toEqual({
      name: 'engine',
      status: 'fail',
      detail: 'gone',
    });
    expect(() => failedCheck('engine', new HammerError('ABORTED', 'interrupted'))).toThrow('interrupted');
    expect(() => failedCheck('engine', new TypeError('a bug'))).toThrow(TypeError);
  });
});

describe('the report and its rendering', () => {
  const checks: DoctorCheck[] = [
    { name: 'engine', status: 'ok', detail: 'Docker 24.0.7' },
    { name: 'AppArmor/SELinux', status: 'warn', detail: 'neither', hint: 'enable one' },
    { name: 'model', status: 'fail', detail: 'cannot reach Ollama; is Ollama running? start it with: ollama serve' },
  ];

  it('is ok unless a check failed; warnings do not fail it', () => {
    expect(doctorReport(checks, null).ok).toBe(false);
    expect(doctorExitCode(doctorReport(checks, null))).toBe(3);
    const warnOnly = doctorReport(checks.slice(0, 2), null);
    expect(warnOnly.ok).toBe(true);
    expect(doctorExitCode(warnOnly)).toBe(0);
  });

  it('prints one aligned line per check with ok/warn/FAIL, the next step under a warning, and a tally', () => {
    expect(renderDoctorReport(doctorReport(checks, null))).toEqual([
      'ok    engine            Docker 24.0.7',
      'warn  AppArmor/SELinux  neither',
      '                      -> enable one',
      'FAIL  model             cannot reach Ollama; is Ollama running? start it with: ollama serve',
      'not ready: 1 check failed, 1 warning',
    ]);
    expect(renderDoctorReport(doctorReport(checks.slice(0, 1), null)).at(-1)).toBe('ready');
    expect(renderDoctorReport(doctorReport(checks.slice(0, 2), null)).at(-1)).toBe('ready (1 warning)');
  });

  it('never prints what a model server sent raw: escapes, controls and bidi marks are neutralised', () => {
    const hostile = doctorReport(
      [
        {
          name: 'model',
          status: 'fail',
          detail: 'answered HTTP 500: \u001b]0;pwned\u0007\u001b[2Jboom\r\nnext\u202eline',
          hint: 'x\u001b[31m',
        },
      ],
      null,
    );
    const text = renderDoctorReport(hostile).join('\n');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text).toContain('answered HTTP 500: boom next<U+202E>line');
  });
});
