// Where hammer-box writes into a directory a repository can shape (a checkout holds what its commits
// put there): a `monitor --bundle` directory the repository committed as an earlier bundle whose
// index.html and assets are links to a host file and a host directory (the bundle step docs/ci.md
// suggests), a bundle or a plan whose path passes through a committed link, a batch directory
// resumed that holds one, and a run's or a conversation's state directory swapped for a link. Each is
// refused before anything is written through the link, the host canary untouched. The controls: a
// new bundle, an earlier bundle replaced whole, a plan written, a batch directory opened and a
// conversation kept, each where nothing is a link.
import { lstat, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BatchDir } from '../../src/batch/batch-dir.js';
import { ConversationStore } from '../../src/state/conversation-store.js';
import { isHammerError } from '../../src/errors.js';
import { tempDir, type FixtureFile } from '../helpers/fixture-repo.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { createPythonFixture, type PythonFixture } from '../helpers/python-fixture.js';
import { TEST_STATE_KEY } from '../helpers/state-key.js';
import { testEnv } from '../integration/run-support.js';
import { conversation } from '../unit/chat/fixtures.js';
import { plantCanary, type Canary } from './support/canary.js';
import { runCli, type CliResult } from './support/cli.js';
import { attackFileHooks } from './support/hooks.js';
import { attack } from './support/record.js';

const { cleanups } = attackFileHooks();

let canary: Canary;
beforeAll(async () => {
  canary = await plantCanary();
  cleanups.push(() => canary.remove());
});

async function fixture(files: Record<string, FixtureFile>): Promise<PythonFixture> {
  const fx = await createPythonFixture(files);
  cleanups.push(() => fx.cleanup());
  return fx;
}

/** The canary file holds what was planted and its directory nothing else. */
async function expectHostUntouched(): Promise<void> {
  expect(await canary.untouched(), 'the host canary file changed').toBe(true);
  expect(await readdir(canary.dir)).toEqual(['host-secret.txt']);
}

function expectUsage(r: CliResult, message: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain('error [USAGE]');
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toContain('internal error');
}

describe('monitor --bundle', () => {
  it('an earlier bundle the repository committed, its index.html and assets links to the host: refused', async () => {
    const fx = await fixture({
      'hammer-pages/.hammer-box-bundle': 'written by hammer-box monitor --bundle\n',
      'hammer-pages/index.html': { symlink: canary.file },
      'hammer-pages/assets': { symlink: canary.dir },
    });
    const r = await runCli(
      ['monitor', '--repo', fx.repo.path, '--bundle', join(fx.repo.path, 'hammer-pages')],
      testEnv(),
    );
    await attack(
      'monitor --bundle into a committed bundle whose index.html and assets are links to a host file and directory',
      'USAGE, exit 2; nothing written through the links',
      async () => {
        expectUsage(r, /holds a symlink, .*hammer-pages\/(index\.html|assets)/);
        await expectHostUntouched();
        expect((await lstat(join(fx.repo.path, 'hammer-pages', 'index.html'))).isSymbolicLink()).toBe(true);
        return `exit 2: ${r.stderr.split('\n')[0]?.slice(0, 120) ?? ''}`;
      },
    );
  });

  it('a bundle whose path passes through a committed link: refused, nothing made in the host directory', async () => {
    const fx = await fixture({ site: { symlink: canary.dir } });
    const r = await runCli(
      ['monitor', '--repo', fx.repo.path, '--bundle', join(fx.repo.path, 'site', 'pages')],
      testEnv(),
    );
    await attack(
      'monitor --bundle through a committed directory link',
      'USAGE, exit 2; the host directory unchanged',
      async () => {
        expectUsage(r, /site is a symlink; hammer-box never writes through a link/);
        await expectHostUntouched();
        return `exit 2: ${r.stderr.split('\n')[0]?.slice(0, 120) ?? ''}`;
      },
    );
  });

  it('control: a new bundle is written, and an earlier one is replaced whole', async () => {
    const fx = await fixture({});
    const out = join(fx.repo.path, 'hammer-pages');
    const first = await runCli(['monitor', '--repo', fx.repo.path, '--bundle', out], testEnv());
    await writeFile(join(out, 'stale.html'), 'from before');
    const again = await runCli(['monitor', '--repo', fx.repo.path, '--bundle', out], testEnv());
    await attack('control for the bundle', 'written, then replaced whole; exit 0', async () => {
      expect(first.code, first.stderr).toBe(0);
      expect(again.code, again.stderr).toBe(0);
      expect((await lstat(join(out, 'index.html'))).isFile()).toBe(true);
      expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('Content-Security-Policy');
      const names = await readdir(out);
      expect(names).not.toContain('stale.html');
      expect((await readdir(fx.repo.path)).filter((n) => n.includes('hammer-box-'))).toEqual([]);
      return `${names.length} entries; the stale page gone`;
    });
  });
});

describe('plan --out', () => {
  let server: ModelServer;
  const PLAN =
    '# Plan: make total() add\n\n## Goal\nx\n\n## Constraints\nx\n\n## Files and functions\ncalc.py\n\n## Steps\n1. x\n\n## Tests\npython3 -m pytest -q\n';
  beforeAll(async () => {
    server = await startModelServer({ models: ['test-model'], script: [] });
    cleanups.push(() => server.close());
  });
  const plan = (fx: PythonFixture, out: string): Promise<CliResult> =>
    runCli(
      [
        'plan',
        '--repo',
        fx.repo.path,
        '-m',
        'make total add',
        '--out',
        out,
        '--llm-url',
        server.url,
        '--model',
        'test-model',
      ],
      testEnv(),
    );

  it('through a committed directory link: refused before the model is asked', async () => {
    const fx = await fixture({ docs: { symlink: canary.dir } });
    const r = await plan(fx, join(fx.repo.path, 'docs', 'plan.md'));
    await attack(
      'plan --out through a committed directory link',
      'USAGE, exit 2; no request; the host directory unchanged',
      async () => {
        expectUsage(r, /docs is a symlink; hammer-box never writes through a link/);
        expect(server.requests).toEqual([]);
        await expectHostUntouched();
        return `exit 2: ${r.stderr.split('\n')[0]?.slice(0, 120) ?? ''}`;
      },
    );
  });

  it('control: the plan is written where nothing is a link', async () => {
    const fx = await fixture({});
    server.enqueue({ answer: PLAN });
    const out = join(fx.repo.path, 'plan.md');
    const r = await plan(fx, out);
    await attack('control for plan --out', 'the plan written, exit 0', async () => {
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      expect(await readFile(out, 'utf8')).toBe(PLAN);
      await expectHostUntouched();
      return 'plan.md written';
    });
  });
});

describe('batch --out --resume', () => {
  it('a batch directory holding a link to the host: refused before any attempt is made', async () => {
    const fx = await fixture({});
    const dir = await tempDir('hb-batch-attack-');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const out = join(dir, 'results');
    await mkdir(out);
    await writeFile(join(out, 'report.json'), '{}');
    await symlink(canary.dir, join(out, 'tasks'));
    const tasks = join(dir, 'tasks.jsonl');
    await writeFile(
      tasks,
      `${JSON.stringify({ id: 't1', repo: fx.repo.path, commit: 'HEAD', directive: 'fix total' })}\n`,
    );
    const r = await runCli(['batch', tasks, '--out', out, '--resume'], testEnv());
    await attack(
      'batch --resume into a directory whose tasks/ is a link to the host',
      'USAGE, exit 2; nothing made through it',
      async () => {
        expectUsage(r, /holds a symlink, .*results\/tasks/);
        await expectHostUntouched();
        // control: a batch directory of real directories opens, and its attempts are made in it
        const plain = join(dir, 'plain');
        const opened = await BatchDir.open(plain, TEST_STATE_KEY, false);
        expect(await opened.makeAttempt('t1', 1)).toBe(join(plain, 'tasks', 't1', 'attempt-1'));
        await opened.unlock();
        return `exit 2: ${r.stderr.split('\n')[0]?.slice(0, 120) ?? ''}; a plain batch directory opens`;
      },
    );
  });
});

describe("a conversation's directory swapped for a link", () => {
  it("is refused before the conversation's file or artifact is written; control: a real one keeps it", async () => {
    const fx = await fixture({});
    const store = new ConversationStore({ dir: join(fx.repo.path, '.hammer'), key: TEST_STATE_KEY });
    const c = conversation({ id: store.newId() });
    await store.create(c);
    await store.writeArtifact(c.id, 'transcript.md', 'kept');
    await rm(store.artifactsDir(c.id), { recursive: true });
    await symlink(canary.dir, store.artifactsDir(c.id));
    const err = await store.writeArtifact(c.id, 'transcript.md', 'through the link').catch((e: unknown) => e);
    await attack(
      "a conversation's artifacts directory swapped for a link to the host",
      'REPO_INVALID; nothing written through it',
      async () => {
        expect(isHammerError(err, 'REPO_INVALID'), String(err)).toBe(true);
        await expectHostUntouched();
        expect((await store.read(c.id)).id).toBe(c.id);
        return (err as Error).message.slice(0, 120);
      },
    );
  });
});
