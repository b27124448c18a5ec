// `make lint` refuses backup, editor and generated files in the tree (tracked, or untracked and not
// ignored): lint/stray-files.mjs names each and exits 1; a clean tree passes.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SCRIPT = join(ROOT, 'lint/stray-files.mjs');
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A git repository holding `tracked` (committed) and `untracked` files. */
function repo(tracked: Record<string, string>, untracked: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'hammer-stray-'));
  dirs.push(dir);
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@localhost', ...args], { cwd: dir, stdio: 'ignore' });
  };
  git('init', '-q');
  for (const [path, text] of Object.entries(tracked)) writeFileSync(join(dir, path), text);
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', 'fixture');
  for (const [path, text] of Object.entries(untracked)) writeFileSync(join(dir, path), text);
  return dir;
}

function check(cwd: string): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [SCRIPT], { cwd, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('lint/stray-files.mjs', () => {
  it('refuses a committed backup of a merge (*.orig) and a rejected hunk (*.rej), naming them', () => {
    const r = check(repo({ 'a.ts': 'x\n', 'a.ts.orig': 'old\n', 'b.ts.rej': '@@\n' }));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/stray-files/);
    expect(r.stderr).toContain('a.ts.orig');
    expect(r.stderr).toContain('b.ts.rej');
    expect(r.stderr).not.toMatch(/^a\.ts$/m);
  });

  it("refuses editors' swap and backup files that are not ignored: .swp, ~, .#", () => {
    for (const name of ['.a.ts.swp', 'a.ts~', '.#a.ts', '#a.ts#', 'a.ts.bak']) {
      const r = check(repo({ 'a.ts': 'x\n' }, { [name]: 'swap\n' }));
      expect(r.status, name).toBe(1);
      expect(r.stderr, name).toContain(name);
    }
  });

  it('refuses a generated file committed (a TypeScript build info)', () => {
    const r = check(repo({ 'tsconfig.tsbuildinfo': '{}\n' }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('tsconfig.tsbuildinfo');
  });

  it('passes a clean tree, and a swap file that .gitignore ignores', () => {
    expect(check(repo({ 'a.ts': 'x\n', 'README.md': '# x\n' })).status).toBe(0);
    expect(check(repo({ 'a.ts': 'x\n', '.gitignore': '*.swp\n' }, { '.a.ts.swp': 'swap\n' })).status).toBe(0);
  });

  it('passes this repository', () => {
    const r = check(ROOT);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
