// `monitor --bundle`: static pages for every run or one, no script in any of them, and a directory
// that is not a bundle is never written over.
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSources } from '../../../src/api/run-sources.js';
import { isHammerError } from '../../../src/errors.js';
import { BUNDLE_MARKER, writeBundle } from '../../../src/monitor/bundle.js';
import { RunStore } from '../../../src/state/store.js';
import { writeSampleRun } from '../../helpers/monitor-runs.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../../helpers/state-key.js';

const A = '20261122T140501Z-aaaaaa';
const B = '20261123T140501Z-bbbbbb';
let repo: string;
let sources: RunSources;

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.push(relative(dir, join(e.parentPath, e.name)));
  return out.sort();
}

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'hb-bundle-'));
  const store = new RunStore({ dir: join(repo, '.hammer'), key: TEST_STATE_KEY });
  await writeSampleRun(store, { runId: A, iterations: 1, end: { status: 'stable', reason: 'tests_pass' } });
  await writeSampleRun(store, { runId: B, start: new Date('2026-11-23T14:05:01Z'), iterations: 1, hostile: true });
  sources = await RunSources.open({ repo, env: TEST_KEY_ENV });
});

afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

describe('writeBundle', () => {
  it('writes the list, a page per status, each run and each artifact it names, with no script anywhere', async () => {
    const out = join(repo, 'all');
    const report = await writeBundle({ sources, out });
    expect(report).toMatchObject({ dir: out, index: join(out, 'index.html'), runs: 2 });
    const written = await files(out);
    expect(written).toEqual(
      expect.arrayContaining([
        BUNDLE_MARKER,
        'assets/diff2html.min.css',
        'assets/monitor.css',
        'index.html',
        'index-running.html',
        'index-stable.html',
        `runs/0-${A}/index.html`,
        `runs/0-${A}/iter-01.patch.html`,
        `runs/0-${A}/iter-01-test.log.html`,
        `runs/0-${A}/PR_SUMMARY.md.html`,
        `runs/0-${B}/index.html`,
      ]),
    );
    expect(written).not.toContain('assets/live.js');
    expect(written).not.toContain(`runs/0-${B}/PR_SUMMARY.md.html`);
    for (const f of written.filter((n) => n.endsWith('.html'))) {
      const page = await readFile(join(out, f), 'utf8');
      expect(page, f).not.toMatch(/<script|<img /);
      expect(page, f).toContain('http-equiv="Content-Security-Policy"');
    }
    const index = await readFile(join(out, 'index.html'), 'utf8');
    expect(index).toContain(`href="runs/0-${A}/index.html"`);
    expect(index).toContain('href="index-failed.html"');
  });

  it('writes one run alone, and says RUN_NOT_FOUND for a run that is not there', async () => {
    const out = join(repo, 'one');
    expect((await writeBundle({ sources, out, runId: A })).runs).toBe(1);
    const written = await files(out);
    expect(written).toContain(`runs/0-${A}/index.html`);
    expect(written.some((f) => f.includes(B))).toBe(false);
    const err = await writeBundle({ sources, out: join(repo, 'none'), runId: '20261122T140509Z-zzzzzz' }).catch(
      (e: unknown) => e,
    );
    expect(isHammerError(err, 'RUN_NOT_FOUND')).toBe(true);
  });

  it('replaces an earlier bundle whole, and refuses a directory with other files in it', async () => {
    const out = join(repo, 'again');
    await writeBundle({ sources, out });
    await writeFile(join(out, 'stale.html'), 'old');
    await writeBundle({ sources, out, runId: A });
    expect(await files(out)).not.toContain('stale.html');
    expect((await files(out)).some((f) => f.includes(B))).toBe(false);
    expect((await readdir(repo)).filter((n) => n.includes('hammer-box'))).toEqual([]);
    const mine = join(repo, 'mine');
    await mkdir(mine);
    await writeFile(join(mine, 'notes.txt'), 'keep me');
    const err = await writeBundle({ sources, out: mine }).catch((e: unknown) => e);
    expect(isHammerError(err, 'USAGE')).toBe(true);
    expect(await files(mine)).toEqual(['notes.txt']);
  });

  it('refuses an earlier bundle holding a link, and a level on the way that is one; nothing is written through them', async () => {
    const host = await mkdtemp(join(tmpdir(), 'hb-bundle-host-'));
    try {
      await writeFile(join(host, 'authorized_keys'), 'keep');
      const planted = join(repo, 'planted');
      await mkdir(planted);
      await writeFile(join(planted, BUNDLE_MARKER), '');
      await symlink(join(host, 'authorized_keys'), join(planted, 'index.html'));
      await symlink(host, join(planted, 'assets'));
      const err = await writeBundle({ sources, out: planted, roots: [repo] }).catch((e: unknown) => e);
      expect(isHammerError(err, 'USAGE')).toBe(true);
      expect((err as Error).message).toMatch(/holds a symlink, .*planted\/(index\.html|assets)/);
      await symlink(host, join(repo, 'pages'));
      const through = await writeBundle({ sources, out: join(repo, 'pages', 'bundle'), roots: [repo] }).catch(
        (e: unknown) => e,
      );
      expect(isHammerError(through, 'USAGE')).toBe(true);
      expect((through as Error).message).toContain(`${join(repo, 'pages')} is a symlink`);
      expect(await readdir(host)).toEqual(['authorized_keys']);
      expect(await readFile(join(host, 'authorized_keys'), 'utf8')).toBe('keep');
      expect((await lstat(join(planted, 'index.html'))).isSymbolicLink()).toBe(true);
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  });
});
