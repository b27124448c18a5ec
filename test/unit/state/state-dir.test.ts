// Where runs go: [state] dir inside the repository, a real directory at every level; and which
// tracked paths under it a base commit may carry.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { stateDirIn, stateDirRefusal, trackedStateRefusal } from '../../../src/state/state-dir.js';

let repo: string;
beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), 'hb-statedir-'));
});
afterEach(async () => {
  await rm(repo, { recursive: true, force: true });
});

async function refused(rel: string): Promise<string> {
  const err = await stateDirIn(repo, rel).catch((e: unknown) => e);
  expect(isHammerError(err, 'REPO_INVALID')).toBe(true);
  return (err as Error).message;
}

describe('stateDirIn', () => {
  it('accepts a missing or plain directory inside the repository', async () => {
    expect(await stateDirIn(repo, '.hammer')).toBe(join(repo, '.hammer'));
    await mkdir(join(repo, 'a', 'b'), { recursive: true });
    expect(await stateDirIn(repo, './a/b/c')).toBe(join(repo, 'a', 'b', 'c'));
  });

  it('refuses paths outside the repository', async () => {
    expect(stateDirRefusal('/tmp/x')).toBe('it is an absolute path');
    expect(await refused('../../outside-state')).toContain('climbs out');
    expect(await refused('a/../../b')).toContain('climbs out');
    expect(await refused('.')).toContain('the repository itself');
    expect(await refused('.git/hammer')).toContain('inside .git');
  });

  it('refuses a symlink (to a directory, or dangling) or a file at any level', async () => {
    await mkdir(join(repo, 'target'));
    await symlink(join(repo, 'target'), join(repo, '.hammer'));
    expect(await refused('.hammer')).toContain('.hammer is a symlink');
    await rm(join(repo, '.hammer'));
    await symlink(join(repo, 'nowhere'), join(repo, '.hammer'));
    expect(await refused('.hammer/x')).toContain('.hammer is a symlink');
    await rm(join(repo, '.hammer'));
    await writeFile(join(repo, '.hammer'), 'x');
    expect(await refused('.hammer')).toContain('is not a directory');
  });
});

describe('trackedStateRefusal', () => {
  it('allows only the repository config under the state directory', () => {
    expect(trackedStateRefusal([], '.hammer', '.hammer/config.toml')).toBeNull();
    expect(trackedStateRefusal(['.hammer/config.toml'], '.hammer', '.hammer/config.toml')).toBeNull();
    const err = trackedStateRefusal(
      ['.hammer/config.toml', '.hammer/runs/20261122T140501Z-abcdef.json'],
      '.hammer',
      '.hammer/config.toml',
    );
    expect(err?.code).toBe('REPO_INVALID');
    expect(err?.message).toContain('".hammer/runs/20261122T140501Z-abcdef.json"');
    expect(trackedStateRefusal(['.hammer'], '.hammer', '.hammer/config.toml')?.message).toContain('".hammer"');
  });
});
