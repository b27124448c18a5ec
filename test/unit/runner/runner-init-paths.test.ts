// The runner's `init <paths-file>`: the base commit holds exactly the listed paths, whatever else
// (test leftovers) sits in the workspace; an existing repository is refused.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostGit, makeWorkspace } from './run-host.js';

describe('runner init with a path list', () => {
  let ws: Awaited<ReturnType<typeof makeWorkspace>>;
  beforeEach(async () => {
    ws = await makeWorkspace({
      'm.py': 'x = 1\n',
      'pkg/a.txt': 'a\n',
      '.gitignore': 'ignored.txt\n',
      'ignored.txt': 'tracked\n',
    });
  });
  afterEach(async () => {
    await ws.cleanup();
  });

  it('commits exactly the listed paths, ignoring what tests left behind', async () => {
    await mkdir(path.join(ws.dir, '.git', 'hammer'), { recursive: true });
    await writeFile(
      path.join(ws.dir, '.git', 'hammer', 'base-paths'),
      ['m.py', 'pkg/a.txt', '.gitignore', 'ignored.txt'].join('\0') + '\0',
    );
    // what a baseline test run leaves in the workspace before init
    await mkdir(path.join(ws.dir, '__pycache__'));
    await writeFile(path.join(ws.dir, '__pycache__', 'm.cpython-311.pyc'), 'junk');
    await writeFile(path.join(ws.dir, 'pkg', 'output.log'), 'junk');
    const r = ws.run('init', '.git/hammer/base-paths');
    expect(r.status).toBe(0);
    expect(r.result).toMatchObject({ op: 'init', ok: true });
    expect(hostGit(ws.dir, 'ls-files').stdout.split('\n').filter(Boolean).sort()).toEqual([
      '.gitignore',
      'ignored.txt',
      'm.py',
      'pkg/a.txt',
    ]);
  });

  it('refuses a path list outside .git/hammer and an existing repository', async () => {
    expect(ws.run('init', 'm.py').status).toBe(2);
    expect(ws.run('init').status).toBe(0);
    const again = ws.run('init');
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already has a repository/);
  });
});
