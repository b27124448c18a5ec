// The make targets a new user meets first: `make build` compiles only when a source changed (so
// `make demo` does not wait on the compiler every time), `make demo` leaves no temporary folder,
// and `make pack` makes a tarball that installs with no build step.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { toolchainImage } from '../helpers/images.js';
import { testEnv } from './run-support.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { version } = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  await rm(join(ROOT, `hammer-box-${version}.tgz`), { force: true });
});

const make = (args: string[], env: NodeJS.ProcessEnv = testEnv()) =>
  run('make', ['--no-print-directory', ...args], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 });

describe('make build', () => {
  it('compiles nothing when nothing changed, and compiles when a source did', async () => {
    await make(['build']);
    const again = await make(['-n', 'build']);
    expect(again.stdout).not.toContain('tsc');
    // -W: as if src/errors.ts had just been edited
    const edited = await make(['-n', '-W', 'src/errors.ts', 'build']);
    expect(edited.stdout).toContain('npx tsc -p tsconfig.json');
  });
});

describe('make demo', () => {
  it('runs the demo to stable and leaves no temporary folder behind', async () => {
    await toolchainImage('python');
    const tmp = await mkdtemp(join(tmpdir(), 'hb-demo-tmp-'));
    dirs.push(tmp);
    const r = await run('bash', ['examples/demo.sh'], { cwd: ROOT, env: testEnv({ TMPDIR: tmp }) });
    expect(r.stdout).toContain('status:     stable (tests_pass)');
    expect(r.stdout).toContain(`repository: ${join(ROOT, '.demo', 'wordcount')}`);
    expect(await readdir(tmp)).toEqual([]);
  }, 600_000);
});

describe('make pack', () => {
  it('makes a tarball that installs with no build step', async () => {
    const made = await make(['pack']);
    const tgz = join(ROOT, `hammer-box-${version}.tgz`);
    expect(existsSync(tgz), made.stdout).toBe(true);
    const listed = (await run('tar', ['-tzf', tgz])).stdout.split('\n');
    expect(listed).toContain('package/dist/cli/main.js');
    expect(listed).not.toContain('package/dist/.built');
    const prefix = await mkdtemp(join(tmpdir(), 'hb-pack-prefix-'));
    dirs.push(prefix);
    // --foreground-scripts: every script npm runs shows in the output as "> <package>@<version> <script>"
    // (a dependency's own install scripts, such as cpu-features', are theirs)
    const installed = await run(
      'npm',
      ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--foreground-scripts', tgz],
      { cwd: prefix, env: testEnv(), maxBuffer: 16 * 1024 * 1024 },
    );
    expect(`${installed.stdout}${installed.stderr}`).not.toContain(`> hammer-box@${version} `);
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'hammer-box', 'node_modules', 'typescript'))).toBe(false);
    const cli = await run(join(prefix, 'bin', 'hammer-box'), ['--version'], { env: testEnv() });
    expect(cli.stdout.trim()).toBe(version);
  }, 600_000);
});
