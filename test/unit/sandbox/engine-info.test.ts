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

  it('copes with an engine that leaves fields out', () => {
    expect(parseEngineInfo({ SecurityOptions: ['name=userns'] }, {})).toMatchObject({
      userns: true,
      rootless: false,
      runtimes: [],
      serverVersion: '',
    });
  });
});
