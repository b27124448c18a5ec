// `run` reaches the engine while it reads the repository: a repository it refuses is still reported
// as that when the engine is unreachable too, and an unreachable engine is reported once the
// repository passed its checks.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../../src/api/run.js';
import { Workbench } from '../../../src/git/index.js';
import { createFixtureRepo, type FixtureRepo } from '../../helpers/fixture-repo.js';

let dir: string;
let repo: FixtureRepo;
const env = (): NodeJS.ProcessEnv => ({
  PATH: process.env['PATH'] ?? '',
  HOME: dir,
  XDG_CONFIG_HOME: join(dir, 'config'),
  XDG_STATE_HOME: join(dir, 'state'),
  DOCKER_HOST: `unix://${join(dir, 'no-engine.sock')}`,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-run-order-'));
  await writeFile(join(dir, 'directive.md'), 'Do it.\n');
  repo = await createFixtureRepo({ files: { 'main.py': 'print(1)\n', 'test_main.py': 'def test_x():\n    pass\n' } });
});
afterAll(async () => {
  await repo?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe('run with an unreachable engine', () => {
  it("reports a directory that is not a repository as that, not as the engine's failure", async () => {
    const notRepo = join(dir, 'plain');
    await mkdir(notRepo);
    const err = await run({ repo: notRepo, directive: join(dir, 'directive.md'), env: env() }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'REPO_INVALID' });
  });

  it('reports the engine once the repository passed its checks', async () => {
    const err = await run({
      repo: repo.path,
      directive: join(dir, 'directive.md'),
      env: env(),
      flags: { model: { provider: 'ollama', name: 'm', url: 'http://127.0.0.1:9' } },
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
  });

  it('removes the workbench the repository was read through, kept for the run, when the run stops before it', async () => {
    const made: Workbench[] = [];
    const create = Workbench.create.bind(Workbench);
    const spy = vi.spyOn(Workbench, 'create').mockImplementation(async (...args) => {
      const wb = await create(...args);
      made.push(wb);
      return wb;
    });
    try {
      const err = await run({
        repo: repo.path,
        directive: join(dir, 'directive.md'),
        env: env(),
        flags: { model: { provider: 'ollama', name: 'm', url: 'http://127.0.0.1:9' } },
      }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
    } finally {
      spy.mockRestore();
    }
    expect(made).toHaveLength(1);
    expect(existsSync(made[0]!.gitOptions().gitDir!)).toBe(false);
  });
});
