import { describe, expect, it } from 'vitest';
import { measureTree, preflightTree, treeRefusal } from '../../../src/git/preflight.js';
import { isHammerError } from '../../../src/errors.js';
import { createFixtureRepo } from '../../helpers/fixture-repo.js';

const MiB = 1024 * 1024;

describe('treeRefusal', () => {
  it('refuses more files than sandbox.max_repo_files, naming the key', () => {
    const e = treeRefusal({ files: 200_000, bytes: 10, largest: null }, { maxFiles: 100_000, workspaceBytes: 0 });
    expect(e?.code).toBe('REPO_INVALID');
    expect(e?.message).toBe('the base commit has 200000 files, over the limit of 100000 (sandbox.max_repo_files)');
  });
  it('refuses a tree that cannot fit twice in the workspace, naming the largest file', () => {
    const e = treeRefusal(
      { files: 2, bytes: 2048 * MiB, largest: { path: 'big.bin', bytes: 2048 * MiB } },
      { maxFiles: 10, workspaceBytes: 2048 * MiB },
    );
    expect(e?.message).toMatch(
      /holds 2048 MiB of files; the largest file is "big.bin" \(2048 MiB\); the sandbox's workspace \(sandbox.workspace_size, 2048 MiB\) must hold them twice/,
    );
    expect(e?.hint).toMatch(/sandbox.workspace_size/);
  });
  it('takes a tree at the limits, and any size with an uncapped workspace', () => {
    expect(
      treeRefusal({ files: 10, bytes: 1024 * MiB, largest: null }, { maxFiles: 10, workspaceBytes: 2048 * MiB }),
    ).toBeNull();
    expect(
      treeRefusal({ files: 1, bytes: 10_000 * MiB, largest: null }, { maxFiles: 10, workspaceBytes: 0 }),
    ).toBeNull();
  });
});

describe('measureTree', () => {
  it('counts files and symlinks from ls-tree sizes, skipping nothing else', async () => {
    const repo = await createFixtureRepo({ files: { 'a.txt': 'aaaa', 'd/b.txt': 'bb', link: { symlink: 'a.txt' } } });
    try {
      const git = { cwd: repo.path, gitDir: `${repo.path}/.git` };
      const head = await repo.head();
      expect(await measureTree(head, git)).toEqual({ files: 3, bytes: 4 + 2 + 5, largest: { path: 'link', bytes: 5 } });
      await expect(preflightTree(head, git, { maxFiles: 2, workspaceBytes: 0 })).rejects.toSatisfy((e: unknown) =>
        isHammerError(e, 'REPO_INVALID'),
      );
    } finally {
      await repo.cleanup();
    }
  });
});
