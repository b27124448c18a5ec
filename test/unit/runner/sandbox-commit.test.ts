// The commit the runner's step makes, computed on the host, is the one git makes: for messages with
// the whitespace `--cleanup=whitespace` rewrites, on SHA-1 and SHA-256 repositories.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupWhitespace, sandboxCommitId } from '../../../src/runner/index.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A repository with a base commit and a second commit made as the runner makes it; [tree, parent, commit]. */
async function commitAsRunner(format: 'sha1' | 'sha256', message: string): Promise<[string, string, string]> {
  const dir = await mkdtemp(join(tmpdir(), 'hb-sandbox-commit-'));
  dirs.push(dir);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'hammer-box',
    GIT_AUTHOR_EMAIL: 'hammer-box@localhost',
    GIT_COMMITTER_NAME: 'hammer-box',
    GIT_COMMITTER_EMAIL: 'hammer-box@localhost',
    GIT_AUTHOR_DATE: '946684800 +0000',
    GIT_COMMITTER_DATE: '946684800 +0000',
  };
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, env }).toString().trim();
  git('init', '-q', `--object-format=${format}`);
  await writeFile(join(dir, 'a.txt'), 'a\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  const parent = git('rev-parse', 'HEAD');
  await writeFile(join(dir, 'a.txt'), 'b\n');
  git('add', '-A');
  git(
    '-c',
    'i18n.commitEncoding=UTF-8',
    'commit',
    '-q',
    '--no-verify',
    '--no-gpg-sign',
    '--cleanup=whitespace',
    '-m',
    message,
  );
  return [git('rev-parse', 'HEAD^{tree}'), parent, git('rev-parse', 'HEAD')];
}

describe('sandboxCommitId', () => {
  it.each([
    ['sha1', 'hammer: iteration 3 - edit calc.py\n'],
    ['sha1', 'no final newline'],
    ['sha1', '\n\n  \ntitle  \t\n\n\n\nbody line \r\n  \n'],
    ['sha1', 'ünïcödé – summary\n'],
    ['sha256', 'hammer: iteration 1 - edit a.txt\n'],
  ] as const)('is the commit git makes (%s, %j)', async (format, message) => {
    const [tree, parent, commit] = await commitAsRunner(format, message);
    expect(sandboxCommitId(tree, parent, message)).toBe(commit);
  });

  it('cleans a message as --cleanup=whitespace does', () => {
    expect(cleanupWhitespace('a')).toBe('a\n');
    expect(cleanupWhitespace('\n \na  \n\n\nb\t\n\n')).toBe('a\n\nb\n');
    expect(cleanupWhitespace(' \n\t\n')).toBe('');
    // \v and \f are not whitespace to git
    expect(cleanupWhitespace('a\v\n')).toBe('a\v\n');
  });
});
