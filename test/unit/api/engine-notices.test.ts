import { describe, expect, it } from 'vitest';
import { checkOpenedEngine, withStartNotices } from '../../../src/api/engine-notices.js';
import { isHammerError } from '../../../src/errors.js';
import type { LoopEvent } from '../../../src/loop/events.js';
import { parseEngineInfo } from '../../../src/sandbox/engine-info.js';

const info = parseEngineInfo(
  {
    Architecture: 'aarch64',
    Runtimes: { runc: {}, 'io.containerd.runc.v2': {} },
    DefaultRuntime: 'runc',
    OperatingSystem: 'Ubuntu 24.04.1 LTS',
    Name: 'colima',
  },
  { Version: '27.3.1', Os: 'linux', Arch: 'arm64', Components: [{ Name: 'Engine' }] },
);
const where = {
  platform: 'Colima',
  described: 'unix:///Users/u/.colima/default/docker.sock (context colima from ~/.docker/config.json)',
};
const config = (runtime: string) => ({ sandbox: { runtime } }) as Parameters<typeof checkOpenedEngine>[2];

describe('checkOpenedEngine', () => {
  it('with --verbose, says which engine and why, then the runtime the sandboxes keep', () => {
    expect(checkOpenedEngine(info, where, config(''), true).notices).toEqual([
      'engine: Docker 27.3.1 on Colima, linux/arm64 at unix:///Users/u/.colima/default/docker.sock (context colima from ~/.docker/config.json)',
      "sandboxes run with runc, the engine's default (no gVisor on Colima; see [sandbox] runtime)",
    ]);
    expect(checkOpenedEngine(info, where, config(''), false).notices).toHaveLength(1);
  });

  it('names the product discovery found when the engine does not say', () => {
    const plain = { ...info };
    delete plain.platform;
    expect(checkOpenedEngine(plain, { platform: 'OrbStack', described: 'x' }, config(''), false).info.platform).toBe(
      'OrbStack',
    );
  });

  it('refuses Podman and a runtime the engine does not offer, before anything is written', () => {
    for (const [facts, runtime] of [
      [{ ...info, product: 'podman' as const }, ''],
      [info, 'runsc'],
    ] as const) {
      let err: unknown;
      try {
        checkOpenedEngine(facts, where, config(runtime), false);
      } catch (e) {
        err = e;
      }
      expect(isHammerError(err, 'SANDBOX_HARDENING')).toBe(true);
    }
  });
});

describe('withStartNotices', () => {
  it('follows run_started with one info notice per line, and passes every event on', () => {
    const seen: LoopEvent[] = [];
    const emit = withStartNotices((e) => seen.push(e), ['one', 'two']);
    const started = {
      type: 'run_started',
      run_id: 'r',
      at: 't',
      repo: '/r',
      base_ref: 'main',
      model: 'm',
      max_iterations: 1,
    } as const;
    emit(started);
    emit({ type: 'notice', run_id: 'r', at: 't', level: 'warning', text: 'w' });
    expect(seen).toEqual([
      started,
      { type: 'notice', run_id: 'r', at: 't', level: 'info', text: 'one' },
      { type: 'notice', run_id: 'r', at: 't', level: 'info', text: 'two' },
      { type: 'notice', run_id: 'r', at: 't', level: 'warning', text: 'w' },
    ]);
  });
});
