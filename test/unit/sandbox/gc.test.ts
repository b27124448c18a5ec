import { describe, expect, it } from 'vitest';
import { isDeadRun, pidAlive } from '../../../src/sandbox/gc.js';
import { sandboxLabels } from '../../../src/sandbox/labels.js';

const labels = (pid: number, host = 'here', runId = 'r1') => sandboxLabels(runId, { pid, host, now: new Date() });
const live = { host: 'here', isPidAlive: (pid: number) => pid === 100 };

describe('isDeadRun', () => {
  it('is dead when the owner process on this host is gone', () => {
    expect(isDeadRun(labels(200), live)).toBe(true);
    expect(isDeadRun(labels(100), live)).toBe(false);
  });

  it("never judges another host's runs or unreadable labels", () => {
    expect(isDeadRun(labels(200, 'elsewhere'), live)).toBe(false);
    expect(isDeadRun({ ...labels(200), 'hammer-box.owner-pid': 'x' }, live)).toBe(false);
    expect(isDeadRun({ ...labels(200), 'hammer-box.managed-by': 'someone' }, live)).toBe(false);
  });

  it('with runIds, removes exactly those runs', () => {
    expect(isDeadRun(labels(100, 'here', 'r1'), { ...live, runIds: ['r1'] })).toBe(true);
    expect(isDeadRun(labels(200, 'here', 'r2'), { ...live, runIds: ['r1'] })).toBe(false);
  });
});

describe('pidAlive', () => {
  it('sees this process and not an impossible pid', () => {
    expect(pidAlive(process.pid)).toBe(true);
    expect(pidAlive(2 ** 22 + 12345)).toBe(false);
  });
});
