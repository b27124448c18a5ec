import { describe, expect, it } from 'vitest';
import { parseEngineInfo } from '../../../src/sandbox/engine-info.js';

describe('parseEngineInfo', () => {
  it('reads runtimes, security options, rootless/userns and the cgroup version', () => {
    const info = {
      OSType: 'linux',
      Architecture: 'x86_64',
      Runtimes: { runc: { path: 'runc' }, runsc: { path: '/usr/bin/runsc' } },
      DefaultRuntime: 'runc',
      SecurityOptions: ['name=seccomp,profile=default', 'name=rootless', 'name=cgroupns'],
      CgroupVersion: '2',
    };
    const version = { Version: '24.0.7', ApiVersion: '1.43', Os: 'linux', Arch: 'amd64' };
    expect(parseEngineInfo(info, version)).toEqual({
      product: 'docker',
      serverVersion: '24.0.7',
      apiVersion: '1.43',
      os: 'linux',
      architecture: 'amd64',
      runtimes: ['runc', 'runsc'],
      defaultRuntime: 'runc',
      securityOptions: info.SecurityOptions,
      rootless: true,
      userns: false,
      cgroupVersion: '2',
    });
  });

  it("knows Podman's Docker-compatible API by the version's components (as Podman 4.3 answers)", () => {
    const version = {
      Platform: { Name: 'linux/amd64/debian-12' },
      Components: [
        { Name: 'Podman Engine', Version: '4.3.1', Details: { APIVersion: '4.3.1' } },
        { Name: 'Conmon', Version: 'conmon version 2.1.6, commit: unknown' },
      ],
      Version: '4.3.1',
      ApiVersion: '1.41',
      Os: 'linux',
      Arch: 'amd64',
    };
    const info = { OSType: 'linux', DefaultRuntime: 'runc', SecurityOptions: ['name=seccomp,profile=default'] };
    expect(parseEngineInfo(info, version)).toMatchObject({ product: 'podman', serverVersion: '4.3.1' });
    const docker = { Version: '27.3.1', Components: [{ Name: 'Engine', Version: '27.3.1' }] };
    expect(parseEngineInfo(info, docker).product).toBe('docker');
  });

  it('copes with an engine that leaves fields out', () => {
    expect(parseEngineInfo({ SecurityOptions: ['name=userns'] }, {})).toMatchObject({
      userns: true,
      rootless: false,
      runtimes: [],
      serverVersion: '',
    });
  });
});

describe('parseEngineInfo: the product the engine runs in', () => {
  const platformOf = (info: Record<string, unknown>): string | undefined => parseEngineInfo(info, {}).platform;
  it('names the desktop engines by how they name their OS or themselves', () => {
    expect(platformOf({ OperatingSystem: 'Docker Desktop', Name: 'docker-desktop' })).toBe('Docker Desktop');
    expect(platformOf({ OperatingSystem: 'OrbStack', Name: 'orbstack' })).toBe('OrbStack');
    expect(platformOf({ OperatingSystem: 'Ubuntu 24.04.1 LTS', Name: 'colima' })).toBe('Colima');
    expect(platformOf({ OperatingSystem: 'Ubuntu 24.04.1 LTS', Name: 'colima-work' })).toBe('Colima');
    expect(platformOf({ OperatingSystem: 'Alpine Linux v3.20', Name: 'lima-rancher-desktop' })).toBe('Rancher Desktop');
  });
  it('names nothing for a plain engine', () => {
    expect(platformOf({ OperatingSystem: 'Debian GNU/Linux 12 (bookworm)', Name: 'ci-runner-7' })).toBeUndefined();
    expect(parseEngineInfo({}, {})).not.toHaveProperty('platform');
  });
});
