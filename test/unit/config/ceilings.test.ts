// Every number a repository's `.hammer/config.toml` may set is a ceiling the user's own layers give:
// the keys come from the schema, so a new numeric key under [loop] or [prompt] is capped without
// anyone adding it to a list. Each is checked by raising it one above the user's value.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ALLOWED, REPO_CEILING_KEYS, repoSettableKeys } from '../../../src/config/ceilings.js';
import { resolveConfig } from '../../../src/config/resolve.js';
import { isHammerError } from '../../../src/errors.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-ceilings-'));
  await mkdir(join(dir, '.hammer'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The value at a dotted key of a resolved config. */
function valueAt(config: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], config);
}

describe('the ceilings of a repository config', () => {
  it('are derived from the schema: every numeric key a repository may set, the four that were missed among them', async () => {
    const { config } = await resolveConfig({ env: {} });
    const settable = repoSettableKeys();
    expect(settable.length).toBeGreaterThan(REPO_ALLOWED.length);
    // the resolved defaults say which keys hold numbers, independently of how the schema is read
    const numeric = settable.filter((k) => typeof valueAt(config, k) === 'number');
    expect([...REPO_CEILING_KEYS].sort()).toEqual(numeric.sort());
    expect(REPO_CEILING_KEYS).toEqual(
      expect.arrayContaining([
        'tools.test_timeout',
        'loop.max_asks',
        'prompt.map_chars',
        'prompt.output_failure_lines',
        'prompt.output_max_failures',
      ]),
    );
    // what is not a number is bounded by the schema itself (a string, a choice, a short list)
    expect(settable.filter((k) => !numeric.includes(k)).sort()).toEqual(
      [
        'loop.mode',
        'sandbox.toolchain',
        'sandbox.toolchain_version',
        'tests.known_failures',
        'tests.rerun_baseline_failures',
        'tools.test_command',
      ].sort(),
    );
  });

  it.each(REPO_CEILING_KEYS.map((k) => [k]))(
    '%s: one above your value is refused, naming file, line and key',
    async (key) => {
      const { config } = await resolveConfig({ env: {} });
      const user = valueAt(config, key) as number;
      const [table, name] = key.split('.') as [string, string];
      await writeFile(join(dir, '.hammer', 'config.toml'), `# raised\n[${table}]\n${name} = ${user + 1}\n`);
      const err = await resolveConfig({ repo: dir, env: {} }).catch((e: unknown) => e);
      expect(isHammerError(err, 'CONFIG_INVALID'), String(err)).toBe(true);
      expect((err as Error).message).toContain(`config.toml:3: ${key} = ${user + 1} is above your limit ${user}`);
      // the same value is taken when it is lower
      await writeFile(join(dir, '.hammer', 'config.toml'), `[${table}]\n${name} = ${user}\n`);
      expect(valueAt((await resolveConfig({ repo: dir, env: {} })).config, key)).toBe(user);
    },
  );
});

describe('docs/security.md', () => {
  it('lists the ceilings the code derives', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile(new URL('../../../docs/security.md', import.meta.url), 'utf8');
    const from = doc.indexOf('<!-- repo-ceilings:start -->');
    const to = doc.indexOf('<!-- repo-ceilings:end -->');
    expect(from).toBeGreaterThan(0);
    expect([...doc.slice(from, to).matchAll(/`([^`]+)`/g)].map((m) => m[1])).toEqual([...REPO_CEILING_KEYS]);
  });
});
