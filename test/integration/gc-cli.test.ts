// The built binary's `gc` removes the sandbox of a run whose owner process is dead and leaves a live
// run's alone. Needs `npx tsc -p tsconfig.json` (make build) first.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DockerSandboxEngine, pidAlive, type Sandbox } from '../../src/sandbox/index.js';
import { testEngine, testSpec } from './sandbox-fixtures.js';

const MAIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const GcSchema = z.object({ containers: z.array(z.string()), volumes: z.array(z.string()) });

const { docker, engine } = testEngine();
const cleanup: Sandbox[] = [];

function hammerBox(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : -1, stdout, stderr });
    });
  });
}

async function exists(kind: 'container' | 'volume', name: string): Promise<boolean> {
  try {
    await (kind === 'container' ? docker.getContainer(name).inspect() : docker.getVolume(name).inspect());
    return true;
  } catch {
    return false;
  }
}

/** The container's name and its workspace volume's name. */
async function namesOf(sandbox: Sandbox): Promise<{ container: string; volume: string }> {
  const inspect = await docker.getContainer(sandbox.id).inspect();
  return { container: inspect.Name.replace(/^\//, ''), volume: inspect.Mounts[0]?.Name ?? '' };
}

beforeAll(() => {
  if (!existsSync(MAIN))
    throw new Error(`${MAIN} is missing: build first with 'npx tsc -p tsconfig.json' (make build)`);
});

afterAll(async () => {
  for (const s of cleanup) await s.destroy();
});

describe('hammer-box gc', () => {
  it('removes the container and volume of a run whose owner was killed, and leaves a live run alone', async () => {
    // A real process owns the dead run: its sandbox is created with that pid, then it is SIGKILLed.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const pid = child.pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    const dead = await new DockerSandboxEngine({
      docker,
      owner: () => ({ pid, host: hostname(), now: new Date() }),
    }).create(await testSpec());
    const deadNames = await namesOf(dead);
    const live = await engine.create(await testSpec());
    cleanup.push(live);
    const liveNames = await namesOf(live);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(pidAlive(pid)).toBe(false);

    const r = await hammerBox(['gc', '--json']);
    expect(r.code).toBe(0);
    const report = GcSchema.parse(JSON.parse(r.stdout));
    expect(report.containers).toContain(deadNames.container);
    expect(report.volumes).toContain(deadNames.volume);
    expect(await exists('container', dead.id)).toBe(false);
    expect(await exists('volume', deadNames.volume)).toBe(false);

    expect(report.containers).not.toContain(liveNames.container);
    expect(report.volumes).not.toContain(liveNames.volume);
    expect(await exists('container', live.id)).toBe(true);
    expect((await live.exec(['true'], { timeoutMs: 30_000 })).exitCode).toBe(0);

    // Run again, for people: the dead run is gone, so it is not named; the live one never is.
    const again = await hammerBox(['gc']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^(nothing to remove|(removed (container|volume) \S+\n?)+)\n?$/);
    expect(again.stdout).not.toContain(deadNames.container);
    expect(again.stdout).not.toContain(liveNames.container);
  });
});
