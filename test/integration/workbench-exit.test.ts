// A workbench's long-lived cat-file process, and the git launcher, never keep node from exiting: a program that reads
// through a workbench and forgets to dispose it still ends (the built library, a fresh node).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';
import { createFixtureRepo, type FixtureRepo } from '../helpers/fixture-repo.js';

const execFileP = promisify(execFile);
let repo: FixtureRepo;
beforeAll(async () => {
  repo = await createFixtureRepo({ files: { 'a.txt': 'alpha\n' } });
});
afterAll(async () => {
  await repo?.cleanup();
});

describe('a workbench left undisposed', () => {
  it('lets the process exit once its reads are answered', async () => {
    const lib = join(packageRoot(), 'dist', 'git', 'index.js');
    const script = [
      `const { resolveUserRepo, Workbench } = await import(${JSON.stringify(lib)});`,
      `const user = await resolveUserRepo(${JSON.stringify(repo.path)}, 'main');`,
      "const wb = await Workbench.create(user, user.baseCommit, { identity: { name: 'n', email: 'e@x' } });",
      "const read = await wb.readFiles(wb.head(), ['a.txt'], { maxBytesPerFile: 100 });",
      'console.log(read.files[0].content.trim());',
      // the temp repository goes (a test leaves nothing), the workbench itself is never disposed
      "(await import('node:fs')).rmSync(wb.dir, { recursive: true, force: true });",
    ].join('\n');
    // a process the reader kept alive would be killed by the timeout, and that rejects here
    const { stdout } = await execFileP(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 });
    expect(stdout.trim()).toBe('alpha');
  });

  it('lets the process exit with the git launcher idle', async () => {
    const lib = join(packageRoot(), 'dist', 'git', 'git-exec.js');
    const script = [
      `const { runGitResult } = await import(${JSON.stringify(lib)});`,
      `const r = await runGitResult(['rev-parse', 'HEAD'], { gitDir: ${JSON.stringify(join(repo.path, '.git'))} });`,
      'console.log(r.stdout.toString().trim().length);',
    ].join('\n');
    const { stdout } = await execFileP(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 });
    expect(stdout.trim()).toBe('40');
  });

  it('takes the git launcher down with it, even with a command stalled on a reader that never read', async () => {
    const big = await createFixtureRepo({ files: { 'big.bin': Buffer.alloc(4 * 1024 * 1024, 7) } });
    try {
      const dist = join(packageRoot(), 'dist', 'git');
      const script = [
        `const { streamGit } = await import(${JSON.stringify(join(dist, 'git-stream.js'))});`,
        `const { gitLauncher } = await import(${JSON.stringify(join(dist, 'launcher.js'))});`,
        `streamGit(['cat-file', 'blob', 'HEAD:big.bin'], { gitDir: ${JSON.stringify(join(big.path, '.git'))} });`,
        'await new Promise((r) => setTimeout(r, 300));',
        'console.log(gitLauncher().pid);',
        'process.exit(0);',
      ].join('\n');
      const { stdout } = await execFileP(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 });
      const pid = Number(stdout.trim());
      expect(pid).toBeGreaterThan(0);
      const alive = (): boolean => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(alive(), 'the launcher outlived the process that started it').toBe(false);
    } finally {
      await big.cleanup();
    }
  });
});
