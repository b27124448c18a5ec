// `hammer-box monitor --bundle DIR`: the monitor's pages as static files (one run or every run), for
// a CI job to keep as an artifact and a reviewer to open without a server. The pages carry no
// script at all and a Content-Security-Policy that says so. The directory may sit in a checkout, so
// the bundle is built in a fresh directory of its own and moved into place: no file is ever written
// through a link the repository committed.
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { RunSources } from '../api/run-sources.js';
import { HammerError } from '../errors.js';
import { refuseLinkedLevels, refuseOddEntries, type PathUse } from '../state/no-follow.js';
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
  /** Where a repository may have shaped `out` (a checkout, the repository): no level below them may be a link; default the current directory. */
  roots?: readonly string[];
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

const USE: PathUse = {
  what: '--bundle',
  hint: 'pass --bundle with a new or empty directory, or an earlier bundle (it is replaced); never one a repository carries',
};

/** What is at `dir` now: nothing, an empty directory, or an earlier bundle (holding only regular files and directories). */
async function checkOut(dir: string): Promise<'absent' | 'empty' | 'bundle'> {
  const st = await lstat(dir).catch(() => null);
  if (st === null) return 'absent';
  if (!st.isDirectory())
    throw new HammerError('USAGE', `${dir} is ${st.isSymbolicLink() ? 'a symlink' : 'not a directory'}`, {
      hint: USE.hint,
    });
  const names = await readdir(dir);
  if (names.length === 0) return 'empty';
  if (!names.includes(BUNDLE_MARKER))
    throw new HammerError('USAGE', `${dir} is not empty and holds no earlier bundle`, {
      hint: 'pass --bundle with a new or empty directory (an earlier bundle is replaced)',
    });
  // replaced whole, but refused when a repository could have planted links in it
  await refuseOddEntries(dir, USE);
  return 'bundle';
}

/** Write the bundle. RUN_NOT_FOUND when `runId` names no run. */
export async function writeBundle(options: BundleOptions): Promise<BundleReport> {
  const dir = resolve(options.out);
  await refuseLinkedLevels(dir, options.roots ?? [process.cwd()], USE);
  const existing = await checkOut(dir);
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
  // built in a fresh directory of its own next to `dir` (every file created there, never opened
  // through a link), then moved into place; an earlier bundle is moved aside and removed
  const parent = dirname(dir);
  await mkdir(parent, { recursive: true });
  const building = await mkdtemp(join(parent, `.${basename(dir)}.hammer-box-`));
  let files = 0;
  const put = async (rel: string, body: string | Buffer): Promise<void> => {
    const path = join(building, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, body, { flag: 'wx' });
    files++;
  };
  try {
    await put(BUNDLE_MARKER, 'written by hammer-box monitor --bundle\n');
    for (const [name, asset] of await loadAssets({ live: false })) await put(`assets/${name}`, asset.body);
    await writePages(pages, runs, options.runId, put);
    await chmod(building, 0o755);
    if (existing === 'absent') await rename(building, dir);
    else {
      const old = join(parent, `.${basename(dir)}.hammer-box-old-${randomBytes(4).toString('hex')}`);
      await rename(dir, old);
      await rename(building, dir);
      await rm(old, { recursive: true, force: true });
    }
  } catch (err) {
    await rm(building, { recursive: true, force: true });
    throw err;
  }
  return { dir, index: join(dir, 'index.html'), runs: runs.length, files };
}

/** Every page of the bundle, through `put` (a path relative to the bundle's root). */
async function writePages(
  pages: Pages,
  runs: ListedRun[],
  runId: string | undefined,
  put: (rel: string, body: string) => Promise<void>,
): Promise<void> {
  const only = new Set(runs.map((r) => `${r.ref.source}/${r.ref.runId}`));
  const pick = (r: ListedRun): boolean => only.has(`${r.ref.source}/${r.ref.runId}`);
  const render = (page: Page, depth: number): string =>
    renderPage({ title: page.title, links: bundleLinks(depth), live: 'none', main: page.main });
  for (const status of [null, ...RUN_STATUSES])
    await put(
      bundleListFile(status),
      render(await pages.list(bundleLinks(0), status, runId === undefined ? undefined : pick), 0),
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
  if (runId === undefined)
    for (const c of await pages.conversations()) {
      const page = await pages.conversation(bundleLinks(1), c.ref);
      if (page) await put(bundleConversationFile(c.ref), render(page, 1));
    }
}
