// An attempt's repository: made beside the source, borrowing its objects, at the task's commit, with
// the commit's own .hammer/config.toml only when it is a small regular file; the source untouched.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sources } from '../../../src/batch/sources.js';
import { makeAttemptRepo } from '../../../src/batch/task-repo.js';
import { gitText } from '../../../src/git/git-exec.js';
import { isHammerError } from '../../../src/errors.js';
import {
  createFixtureRepo,
  diffSnapshots,
  snapshotRepo,
  tempDir,
  type FixtureRepo,
} from '../../helpers/fixture-repo.js';

let source: FixtureRepo;
let work: string;

beforeEach(async () => {
  source = await createFixtureRepo({
    files: { 'a.txt': 'one\n' },
    commits: [
      { files: { '.hammer/config.toml': '[loop]\nmax_iterations = 2\n' }, message: 'with config' },
      { files: { '.hammer/config.toml': { symlink: '/etc/passwd' } }, message: 'config as a symlink' },
      { files: { '.hammer/config.toml': 'x'.repeat(70_000) }, message: 'config too big' },
    ],
  });
  work = await tempDir('hb-attempt-');
});
afterEach(async () => {
  await source.cleanup();
  await rm(work, { recursive: true, force: true });
});

async function commitOf(message: string): Promise<string> {
  return (await source.git(['log', '--format=%H', `--grep=^${message}$`])).trim();
}

describe('makeAttemptRepo', () => {
  it("borrows the objects, puts base at the commit, copies the commit's config, and changes nothing in the source", async () => {
    const before = await snapshotRepo(source.path);
    const sources = new Sources(join(work, 'sources'));
    const repo = join(work, 'attempt');
    const src = await sources.resolve({ kind: 'path', path: source.path }, 'HEAD~2');
    expect(src.commit).toBe(await commitOf('with config'));
    await makeAttemptRepo(repo, src);
    expect(await gitText(['rev-parse', 'HEAD', 'refs/heads/base'], { gitDir: repo })).toBe(
      `${src.commit}\n${src.commit}`,
    );
    expect(await gitText(['rev-parse', '--is-bare-repository'], { gitDir: repo })).toBe('true');
    expect(await readFile(join(repo, 'objects', 'info', 'alternates'), 'utf8')).toBe(
      `${join(source.path, '.git', 'objects')}\n`,
    );
    expect(await readFile(join(repo, '.hammer', 'config.toml'), 'utf8')).toBe('[loop]\nmax_iterations = 2\n');
    expect(diffSnapshots(before, await snapshotRepo(source.path))).toEqual({ added: [], removed: [], changed: [] });
  });

  it('has no config when the commit has none', async () => {
    const src = await new Sources(join(work, 'sources')).resolve({ kind: 'path', path: source.path }, 'HEAD~3');
    await makeAttemptRepo(join(work, 'attempt'), src);
    await expect(readFile(join(work, 'attempt', '.hammer', 'config.toml'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a config tracked as a symlink or over the size cap, and a commit the source does not have', async () => {
    const sources = new Sources(join(work, 'sources'));
    const link = await sources.resolve({ kind: 'path', path: source.path }, 'HEAD~1');
    await expect(makeAttemptRepo(join(work, 'a1'), link)).rejects.toThrow(/tracks \.hammer\/config\.toml as a symlink/);
    const big = await sources.resolve({ kind: 'path', path: source.path }, 'HEAD');
    await expect(makeAttemptRepo(join(work, 'a2'), big)).rejects.toThrow(/as a 70000-byte file/);
    const err = await sources.resolve({ kind: 'path', path: source.path }, '0'.repeat(40)).catch((e: unknown) => e);
    expect(isHammerError(err, 'REPO_INVALID')).toBe(true);
    const missing = await makeAttemptRepo(join(work, 'a3'), { ...big, commit: '1'.repeat(40) }).catch(
      (e: unknown) => e,
    );
    expect(isHammerError(missing, 'REPO_INVALID')).toBe(true);
  });
});
