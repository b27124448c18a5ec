// scripts/gvisor-config.mjs: registering runsc in a Docker daemon config keeps everything else,
// and never overwrites a file it cannot read as a JSON object.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const SCRIPT = join(import.meta.dirname, '..', '..', '..', 'scripts', 'gvisor-config.mjs');
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function register(
  content: string | null,
): Promise<{ code: number; stderr: string; file: string; after: string | null }> {
  dir = await mkdtemp(join(tmpdir(), 'hb-gvisor-config-'));
  const file = join(dir, 'daemon.json');
  if (content !== null) await writeFile(file, content);
  const r = await exec(process.execPath, [SCRIPT, file, '/usr/bin/runsc']).then(
    (o) => ({ code: 0, stderr: o.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
  return { ...r, file, after: await readFile(file, 'utf8').catch(() => null) };
}

const RUNSC = { path: '/usr/bin/runsc', runtimeArgs: ['--network=none'] };

describe('gvisor-config.mjs', () => {
  it('adds runsc to a config, keeping other keys and runtimes', async () => {
    const r = await register(JSON.stringify({ 'log-level': 'warn', runtimes: { kata: { path: '/opt/kata' } } }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.after!)).toEqual({
      'log-level': 'warn',
      runtimes: { kata: { path: '/opt/kata' }, runsc: RUNSC },
    });
    // nothing else left beside it (the temp file was renamed into place)
    expect(await readdir(dir!)).toEqual(['daemon.json']);
  });

  it('starts from nothing when the file is missing or empty', async () => {
    expect(JSON.parse((await register(null)).after!)).toEqual({ runtimes: { runsc: RUNSC } });
    expect(JSON.parse((await register('  \n')).after!)).toEqual({ runtimes: { runsc: RUNSC } });
  });

  it('never overwrites a file that is not a JSON object, and says so', async () => {
    for (const bad of ['{"log-level": "warn",', '[1, 2]', '{"runtimes": []}']) {
      const r = await register(bad);
      expect(r.code, bad).toBe(1);
      expect(r.stderr).toMatch(/fix it, then run 'make gvisor' again/);
      expect(r.after).toBe(bad);
    }
  });
});
