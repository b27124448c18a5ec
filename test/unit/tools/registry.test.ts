import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/resolve.js';
import { isHammerError } from '../../../src/errors.js';
import { loadToolPlugins } from '../../../src/tools/plugins.js';
import { BUILTIN_TOOLS, ToolRegistry } from '../../../src/tools/registry.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-tools-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ToolRegistry', () => {
  it('lists the built-in tools with JSON Schema contracts', () => {
    const contracts = new ToolRegistry().contracts();
    expect(contracts.map((c) => c.name)).toEqual([
      'git_status',
      'git_diff',
      'git_apply_check',
      'git_apply',
      'git_log',
      'pytest',
      'compileall',
      'npm_build',
      'lint',
    ]);
    const apply = contracts.find((c) => c.name === 'git_apply') as {
      input: { properties: Record<string, unknown>; required: string[] };
    };
    expect(apply.input.required).toEqual(['patch']);
    expect((contracts[0]!.output as { properties: Record<string, unknown> }).properties).toHaveProperty('exit_code');
  });

  it('refuses duplicate and badly named tools', () => {
    const r = new ToolRegistry();
    expect(() => r.register(BUILTIN_TOOLS[0]!)).toThrow(/already registered/);
    expect(() => r.register({ ...BUILTIN_TOOLS[0]!, name: 'Bad-Name' })).toThrow(/snake_case/);
  });

  it('builds argv only from validated input (no path escapes, no option injection)', () => {
    const pytest = BUILTIN_TOOLS.find((t) => t.name === 'pytest')!;
    expect(pytest.input.safeParse({ paths: ['../etc'] }).success).toBe(false);
    expect(pytest.input.safeParse({ paths: ['-k evil'] }).success).toBe(false);
    expect(pytest.argv(pytest.input.parse({ paths: ['tests/test_a.py'] }))).toEqual([
      'python3',
      '-m',
      'pytest',
      '-q',
      'tests/test_a.py',
    ]);
    const apply = BUILTIN_TOOLS.find((t) => t.name === 'git_apply')!;
    expect(apply.input.safeParse({ patch: '/etc/passwd' }).success).toBe(false);
    expect(apply.input.safeParse({ patch: '.git/hammer/iter-01.patch' }).success).toBe(true);
  });
});

describe('tool plugins', () => {
  it('loads a plugin module that registers a tool', async () => {
    const plugin = join(dir, 'my-tools.mjs');
    await writeFile(
      plugin,
      `import { z } from ${JSON.stringify(new URL('../../../node_modules/zod/index.js', import.meta.url).href)};\nexport function register(registry) {\n  registry.register({ name: 'ruff', description: 'ruff check', input: z.object({}).strict(), argv: () => ['ruff', 'check', '.'], timeoutSec: 60 });\n}\n`,
    );
    const r = new ToolRegistry();
    await loadToolPlugins(r, [plugin]);
    expect(r.list().map((t) => t.name)).toContain('ruff');
    expect(r.contracts().find((c) => c.name === 'ruff')?.timeout_sec).toBe(60);
  });

  it('names a plugin that is missing or has no register()', async () => {
    const bad = join(dir, 'bad.mjs');
    await writeFile(bad, 'export const x = 1;\n');
    await expect(loadToolPlugins(new ToolRegistry(), [bad])).rejects.toSatisfy(
      (e: unknown) => isHammerError(e, 'CONFIG_INVALID') && (e as Error).message.includes('no register'),
    );
    await expect(loadToolPlugins(new ToolRegistry(), [join(dir, 'nope.mjs')])).rejects.toSatisfy((e: unknown) =>
      isHammerError(e, 'CONFIG_INVALID'),
    );
  });

  it('is never loaded from a repository config (that would run repository code on the host)', async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, '.hammer'));
    await writeFile(join(dir, '.hammer', 'config.toml'), '[tools]\nplugins = ["./evil.mjs"]\n');
    await expect(resolveConfig({ repo: dir, env: {} })).rejects.toSatisfy(
      (e: unknown) => isHammerError(e, 'CONFIG_INVALID') && (e as Error).message.includes('tools.plugins'),
    );
  });
});
