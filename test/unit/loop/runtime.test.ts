import { describe, expect, it } from 'vitest';
import { pickRuntime, resolveRuntime } from '../../../src/loop/runtime.js';
import type { EngineInfo } from '../../../src/sandbox/types.js';

const engine = (runtimes: string[]) => {
  const calls: number[] = [];
  return {
    calls,
    info: async (): Promise<EngineInfo> => {
      calls.push(1);
      return {
        product: 'docker',
        serverVersion: '20.10',
        apiVersion: '1.41',
        os: 'linux',
        architecture: 'x86_64',
        runtimes,
        defaultRuntime: 'runc',
        securityOptions: [],
        rootless: false,
        userns: false,
        cgroupVersion: '1',
      };
    },
  };
};

describe('[sandbox] runtime', () => {
  it('"auto" is gVisor when the engine offers runsc, else the engine default', () => {
    expect(pickRuntime('auto', { runtimes: ['runc', 'runsc'] })).toBe('runsc');
    expect(pickRuntime('auto', { runtimes: ['io.containerd.runc.v2', 'runc'] })).toBe('');
  });

  it('any other value is used as it is, even when the engine lacks it (the sandbox then fails closed)', () => {
    expect(pickRuntime('', { runtimes: ['runc', 'runsc'] })).toBe('');
    expect(pickRuntime('runsc', { runtimes: ['runc'] })).toBe('runsc');
    expect(pickRuntime('kata', { runtimes: ['runc', 'runsc'] })).toBe('kata');
  });

  it('asks the engine only for "auto"', async () => {
    const e = engine(['runc', 'runsc']);
    expect(await resolveRuntime('runc', e)).toBe('runc');
    expect(e.calls).toHaveLength(0);
    expect(await resolveRuntime('auto', e)).toBe('runsc');
    expect(await resolveRuntime('auto', engine(['runc']))).toBe('');
    expect(e.calls).toHaveLength(1);
  });
});
