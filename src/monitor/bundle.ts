// `hammer-box monitor --bundle DIR`: the monitor's pages as static files (one run or every run), for
// a CI job to keep as an artifact and a reviewer to open without a server. The pages carry no
// script at all and a Content-Security-Policy that says so.
import { lstat, mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { RunSources } from '../api/run-sources.js';
import { HammerError } from '../errors.js';
import { RUN_STATUSES } from '../state/run-state.js';
import { loadAssets } from './assets.js';
import { bundleArtifactFile, bundleConversationFile, bundleLinks, bundleListFile, bundleRunDir } from './links.js';
import { allowedArtifacts, Pages, type Page } from './pages.js';
import { RunReader, type ListedRun } from './reader.js';
import { renderPage } from './render/layout.js';

/** What to bundle and where. */
export interface BundleOptions {
  sources: RunSources;
  /** The directory written: absent, empty, or a bundle written before. */
  out: string;
  /** Only this run (default: every run). */
  runId?: string;
}

/** What a bundle holds. */
export interface BundleReport {
  dir: string;
  index: string;
  runs: number;
  files: number;
}

/** Marks a directory as a bundle, so writing one again may replace its files. */
export const BUNDLE_MARKER = '.hammer-box-bundle';

async function checkOut(dir: string): Promise<void> {
  const st = await lstat(dir).catch(() => null);
  if (st === null) return;
  if (!st.isDirectory())
    throw new HammerError('USAGE', `${dir} is ${st.isSymbolicLink() ? 'a symlink' : 'not a directory'}`, {
      hint: 'pass --bundle with a new or empty directory',
    });
  const names = await readdir(dir);
  if (names.length > 0 && !names.includes(BUNDLE_MARKER))
    throw new HammerError('USAGE', `${dir} is not empty and holds no earlier bundle`, {
      hint: 'pass --bundle with a new or empty directory (an earlier bundle is replaced)',
    });
}

/** Write the bundle. RUN_NOT_FOUND when `runId` names no run. */
export async function writeBundle(options: BundleOptions): Promise<BundleReport> {
  const dir = resolve(options.out);
  await checkOut(dir);
  const reader = new RunReader(options.sources);
  const pages = new Pages(reader);
  const all = await reader.listing();
  const runs = options.runId === undefined ? all : all.filter((r) => r.ref.runId === options.runId);
  if (options.runId !== undefined && runs.length === 0)
    throw new HammerError(
      'RUN_NOT_FOUND',
      `no run ${options.runId} in ${options.sources
        .list()
        .map((s) => s.label)
        .join(', ')}`,
      {
        hint: 'list the runs with: hammer-box runs list',
      },
    );
  let files = 0;
  const put = async (rel: string, body: string | Buffer): Promise<void> => {
    const path = join(dir, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, body);
    files++;
  };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, BUNDLE_MARKER), 'written by hammer-box monitor --bundle\n');
  for (const [name, asset] of await loadAssets({ live: false })) await put(`assets/${name}`, asset.body);
  const only = new Set(runs.map((r) => `${r.ref.source}/${r.ref.runId}`));
  const pick = (r: ListedRun): boolean => only.has(`${r.ref.source}/${r.ref.runId}`);
  const render = (page: Page, depth: number): string =>
    renderPage({ title: page.title, links: bundleLinks(depth), live: 'none', main: page.main });
  for (const status of [null, ...RUN_STATUSES])
    await put(
      bundleListFile(status),
      render(await pages.list(bundleLinks(0), status, options.runId === undefined ? undefined : pick), 0),
    );
  for (const r of runs) {
    const runDir = bundleRunDir(r.ref);
    const page = await pages.run(bundleLinks(2), r.ref);
    if (page === null) continue;
    await put(`${runDir}/index.html`, render(page, 2));
    for (const name of allowedArtifacts(r)) {
      const artifact = await pages.artifact(bundleLinks(2), r.ref, name);
      if (artifact) await put(`${runDir}/${bundleArtifactFile(name)}`, render(artifact, 2));
    }
  }
  if (options.runId === undefined)
    for (const c of await pages.conversations()) {
      const page = await pages.conversation(bundleLinks(1), c.ref);
      if (page) await put(bundleConversationFile(c.ref), render(page, 1));
    }
  return { dir, index: join(dir, 'index.html'), runs: runs.length, files };
}
