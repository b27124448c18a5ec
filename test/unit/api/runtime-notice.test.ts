import { describe, expect, it } from 'vitest';
import { missingRuntime, runtimeNotice, type RuntimeFacts } from '../../../src/api/runtime-notice.js';

const linux: RuntimeFacts = { runtimes: ['io.containerd.runc.v2', 'runc'], defaultRuntime: 'runc', os: 'linux' };
const withGvisor: RuntimeFacts = { ...linux, runtimes: [...linux.runtimes, 'runsc'] };
const desktop: RuntimeFacts = { ...linux, platform: 'Docker Desktop' };
const colima: RuntimeFacts = { ...linux, platform: 'Colima' };

describe('missingRuntime: a configured runtime the engine lacks fails closed, before anything is written', () => {
  it('never refuses the default ("") or "auto", nor a runtime the engine offers', () => {
    for (const facts of [linux, withGvisor, desktop]) {
      expect(missingRuntime('', facts)).toBeNull();
      expect(missingRuntime('auto', facts)).toBeNull();
    }
    expect(missingRuntime('runsc', withGvisor)).toBeNull();
    expect(missingRuntime('runc', linux)).toBeNull();
  });

  it('names Docker Desktop, which has no gVisor, and says to use a Linux engine or the default', () => {
    const err = missingRuntime('runsc', desktop);
    expect(err?.code).toBe('SANDBOX_HARDENING');
    expect(err?.message).toBe(
      '[sandbox] runtime is "runsc" (gVisor), but Docker Desktop has no gVisor: its engine runs in a VM hammer-box cannot add runsc to; it offers only io.containerd.runc.v2, runc (default)',
    );
    expect(err?.hint).toBe(
      'run hammer-box against a Linux Docker Engine with gVisor registered (\'make gvisor\' as root on Debian or Ubuntu; https://gvisor.dev/docs/user_guide/install/), or set [sandbox] runtime = "" (runc, the engine\'s default) or "auto" (gVisor wherever an engine offers it, the default elsewhere)',
    );
  });

  it('names a desktop VM engine and says to install gVisor in that VM', () => {
    const err = missingRuntime('runsc', colima);
    expect(err?.message).toMatch(
      /^\[sandbox\] runtime is "runsc" \(gVisor\), but Colima's engine does not offer gVisor;/,
    );
    expect(err?.hint).toMatch(/^install gVisor in Colima's Linux VM and register runsc as a runtime of its engine/);
  });

  it('says the same of a plain engine, with the way to register gVisor on it', () => {
    const err = missingRuntime('runsc', linux);
    expect(err?.message).toMatch(/but the engine does not offer gVisor; it offers only/);
    expect(err?.hint).toMatch(/^install gVisor and register runsc as a runtime of the engine \('make gvisor'/);
  });

  it('refuses any other runtime the engine does not offer, naming what it offers', () => {
    const err = missingRuntime('kata', desktop);
    expect(err?.message).toBe(
      '[sandbox] runtime is "kata", but Docker Desktop offers only io.containerd.runc.v2, runc (default)',
    );
    expect(err?.hint).toMatch(/^register kata as a runtime of the engine, or set \[sandbox\] runtime = ""/);
  });
});

describe('runtimeNotice: one line when sandboxes keep the default runtime', () => {
  it('says runc is used, and why, for the default setting', () => {
    expect(runtimeNotice('', desktop)).toBe(
      "sandboxes run with runc, the engine's default (no gVisor on Docker Desktop; see [sandbox] runtime)",
    );
    expect(runtimeNotice('', withGvisor)).toBe(
      'sandboxes run with runc, the engine\'s default; gVisor (runsc) is offered: [sandbox] runtime = "auto" uses it',
    );
  });

  it('says "auto" found no gVisor, and nothing when it did', () => {
    expect(runtimeNotice('auto', colima)).toBe(
      'sandboxes run with runc, the engine\'s default: [sandbox] runtime = "auto" found no gVisor (runsc) on Colima',
    );
    expect(runtimeNotice('auto', withGvisor)).toBeNull();
  });

  it('says nothing for a runtime named in the config', () => {
    expect(runtimeNotice('runsc', withGvisor)).toBeNull();
    expect(runtimeNotice('runc', linux)).toBeNull();
  });
});
