import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ollamaHostToUrl } from '../../../src/config/env-layer.js';
import { resolveConfig } from '../../../src/config/resolve.js';
import { isHammerError } from '../../../src/errors.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function expectConfigError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(isHammerError(err, 'CONFIG_INVALID')).toBe(true);
    return (err as Error).message;
  }
  throw new Error('expected CONFIG_INVALID');
}

describe('resolveConfig', () => {
  it('loads the shipped defaults', async () => {
    const { config } = await resolveConfig({ env: {} });
    expect(config.model.provider).toBe('ollama');
    expect(config.model.name).toBe('qwen3-coder:30b');
    expect(config.sandbox.memory).toBe(2 * 1024 ** 3);
    expect(config.sandbox.user).toBe('10001:10001');
    expect(config.git.branch_prefix).toBe('EngineerExternal/');
  });

  it('offers tools by default; [model] tools takes "off" and refuses anything else, naming the key', async () => {
    expect((await resolveConfig({ env: {} })).config.model.tools).toBe('auto');
    const off = join(dir, 'off.toml');
    await writeFile(off, '[model]\ntools = "off"\n');
    expect((await resolveConfig({ configFile: off, env: {} })).config.model.tools).toBe('off');
    const bad = join(dir, 'bad.toml');
    await writeFile(bad, '[model]\ntools = "always"\n');
    expect(await expectConfigError(resolveConfig({ configFile: bad, env: {} }))).toMatch(/model\.tools/);
  });

  it('applies layers in order: defaults < repo < --config < env < flags', async () => {
    await mkdir(join(dir, '.hammer'));
    await writeFile(
      join(dir, '.hammer', 'config.toml'),
      '[loop]\nmax_diff_lines = 100\n[tools]\ntest_command = "make check"\n',
    );
    const file = join(dir, 'mine.toml');
    await writeFile(file, '[loop]\nmax_iterations = 4\n[model]\nname = "from-file"\n[tools]\ntest_command = "mine"\n');
    const { config, sources } = await resolveConfig({
      repo: dir,
      configFile: file,
      env: { HAMMER_MODEL: 'from-env', HAMMER_MAX_ITERATIONS: '6' },
      flags: { loop: { max_iterations: 7 } },
    });
    expect(config.loop.max_diff_lines).toBe(100);
    expect(config.tools.test_command).toBe('mine');
    expect(config.model.name).toBe('from-env');
    expect(config.loop.max_iterations).toBe(7);
    expect(sources.get('loop.max_iterations')).toBe('command line');
    expect(sources.get('loop.max_diff_lines')).toBe(join(dir, '.hammer', 'config.toml'));
  });

  it("takes a limit the repository lowers, even below the user's own value", async () => {
    await mkdir(join(dir, '.hammer'));
    await writeFile(join(dir, '.hammer', 'config.toml'), '[loop]\nmax_iterations = 3\n[prompt]\nbudget_chars = 2000\n');
    const { config, sources } = await resolveConfig({ repo: dir, env: {}, flags: { loop: { max_iterations: 7 } } });
    expect(config.loop.max_iterations).toBe(3);
    expect(config.prompt.budget_chars).toBe(2000);
    expect(sources.get('loop.max_iterations')).toBe(join(dir, '.hammer', 'config.toml'));
  });

  it("refuses a repository config that raises a limit above the user's, naming file, line, key and limit", async () => {
    await mkdir(join(dir, '.hammer'));
    await writeFile(
      join(dir, '.hammer', 'config.toml'),
      '[prompt]\nfile_max_bytes = 63000000\nbudget_chars = 400000000\n[loop]\nmax_iterations = 1000\n',
    );
    const msg = await expectConfigError(resolveConfig({ repo: dir, env: {} }));
    expect(msg).toContain('config.toml:2: prompt.file_max_bytes = 63000000 is above your limit 16000');
    expect(msg).toContain('config.toml:3: prompt.budget_chars');
    expect(msg).toContain('config.toml:5: loop.max_iterations = 1000 is above your limit 10');
    // the user raising their own ceiling lets the same file through
    const ok = await resolveConfig({
      repo: dir,
      env: {},
      flags: { prompt: { file_max_bytes: 63_000_000, budget_chars: 400_000_000 }, loop: { max_iterations: 1000 } },
    });
    expect(ok.config.loop.max_iterations).toBe(1000);
  });

  it.each([
    ['[sandbox]\nengine = "kubernetes"\n', 'sandbox.engine'],
    ['[sandbox]\ntrusted_repo = true\n', 'sandbox.trusted_repo'],
    ['[kubernetes]\ncontext = "production"\n', 'kubernetes.context'],
  ])('refuses a repository config choosing where it runs or vouching for itself (%s)', async (toml, key) => {
    await mkdir(join(dir, '.hammer'));
    await writeFile(join(dir, '.hammer', 'config.toml'), toml);
    const msg = await expectConfigError(resolveConfig({ repo: dir, env: {} }));
    expect(msg).toContain(key);
  });

  it('takes the backend, its context and trust from the user: defaults docker, untrusted', async () => {
    const { config } = await resolveConfig({ env: {} });
    expect(config.sandbox.engine).toBe('docker');
    expect(config.sandbox.trusted_repo).toBe(false);
    expect(config.kubernetes).toEqual({
      kubeconfig: '',
      context: '',
      namespace: '',
      registry: '',
      image_pull_policy: 'IfNotPresent',
      start_timeout: 300,
      pod_deadline: 86400,
      seccomp_profile: 'RuntimeDefault',
      outage_retry: 60,
      pids_limit: 1024,
      proof_lifetime: 3600,
    });
    const flagged = await resolveConfig({
      env: {},
      flags: { sandbox: { engine: 'kubernetes' }, kubernetes: { context: 'kind-hb', registry: 'localhost:5000/hb' } },
    });
    expect(flagged.config.sandbox.engine).toBe('kubernetes');
    expect(flagged.config.kubernetes.registry).toBe('localhost:5000/hb');
    await expectConfigError(resolveConfig({ env: {}, flags: { kubernetes: { registry: 'https://x/y' } } }));
  });

  it.each([
    ['[prompt.__proto__]\nbudget_chars = 5\n', 'prompt.__proto__'],
    ['[loop]\nconstructor = 1\n', 'loop.constructor'],
    ['prototype = { polluted = 1 }\n', 'prototype'],
  ])('refuses a prototype key (%s) naming the file that holds it', async (toml, key) => {
    await mkdir(join(dir, '.hammer'));
    await writeFile(join(dir, '.hammer', 'config.toml'), toml);
    const msg = await expectConfigError(resolveConfig({ repo: dir, env: {} }));
    expect(msg).toContain(join(dir, '.hammer', 'config.toml'));
    expect(msg).toContain(key);
    expect(msg).not.toContain('default.toml');
    expect(({} as Record<string, unknown>)['budget_chars']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('never reads a repository config through a symlink, and caps the size of every config file', async () => {
    await mkdir(join(dir, '.hammer'));
    await symlink('/dev/zero', join(dir, '.hammer', 'config.toml'));
    expect(await expectConfigError(resolveConfig({ repo: dir, env: {} }))).toContain('symlink');
    await rm(join(dir, '.hammer'), { recursive: true });
    const elsewhere = join(dir, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'config.toml'), '[loop]\nmax_iterations = 2\n');
    await symlink(elsewhere, join(dir, '.hammer'));
    expect(await expectConfigError(resolveConfig({ repo: dir, env: {} }))).toContain('is a symlink');
    const big = join(dir, 'big.toml');
    await writeFile(big, `# ${'x'.repeat(2 * 1024 * 1024)}\n`);
    expect(await expectConfigError(resolveConfig({ configFile: big, env: {} }))).toContain(
      'over the 1048576-byte limit',
    );
    expect(await expectConfigError(resolveConfig({ configFile: '/dev/zero', env: {} }))).toContain(
      'not a regular file',
    );
  });

  it('names file, line and key for a bad value', async () => {
    const file = join(dir, 'bad.toml');
    await writeFile(file, '# comment\n[sandbox]\nmemory = "lots"\n\n[loop]\nmax_iterations = 0\n');
    const msg = await expectConfigError(resolveConfig({ configFile: file, env: {} }));
    expect(msg).toContain(`${file}:3: sandbox.memory`);
    expect(msg).toContain(`${file}:6: loop.max_iterations`);
  });

  it('names unknown keys', async () => {
    const file = join(dir, 'unknown.toml');
    await writeFile(file, '[loop]\nmax_iteration = 3\n');
    const msg = await expectConfigError(resolveConfig({ configFile: file, env: {} }));
    expect(msg).toContain('loop.max_iteration');
    expect(msg).toContain(file);
  });

  it('reports TOML syntax errors with the line', async () => {
    const file = join(dir, 'syntax.toml');
    await writeFile(file, '[loop]\nmax_iterations = \n');
    const msg = await expectConfigError(resolveConfig({ configFile: file, env: {} }));
    expect(msg).toMatch(new RegExp(`${file}:2:\\d+`));
  });

  it('refuses sandbox, model and git keys from the untrusted repository config', async () => {
    await mkdir(join(dir, '.hammer'));
    await writeFile(
      join(dir, '.hammer', 'config.toml'),
      '[sandbox]\ntoolchain = "python"\nmemory = "64g"\n[model]\nurl = "http://evil.example"\n',
    );
    const msg = await expectConfigError(resolveConfig({ repo: dir, env: {} }));
    expect(msg).toContain('config.toml:3: sandbox.memory');
    expect(msg).toContain('config.toml:5: model.url');
    expect(msg).not.toContain('sandbox.toolchain');
  });

  it('[tests] known_failures: none by default, a list of patterns the repository may set', async () => {
    expect((await resolveConfig({ env: {} })).config.tests.known_failures).toEqual([]);
    await mkdir(join(dir, '.hammer'));
    await writeFile(join(dir, '.hammer', 'config.toml'), '[tests]\nknown_failures = ["tests/test_net.py::*"]\n');
    expect((await resolveConfig({ repo: dir, env: {} })).config.tests.known_failures).toEqual(['tests/test_net.py::*']);
    await writeFile(join(dir, '.hammer', 'config.toml'), '[tests]\nknown_failures = [""]\n');
    expect(await expectConfigError(resolveConfig({ repo: dir, env: {} }))).toMatch(/tests\.known_failures\.0/);
  });

  it('refuses a root sandbox user', async () => {
    const msg = await expectConfigError(resolveConfig({ env: {}, flags: { sandbox: { user: '0:0' } } }));
    expect(msg).toContain('sandbox.user');
  });

  it('reads OLLAMA_HOST when HAMMER_LLM_URL is unset', async () => {
    const { config } = await resolveConfig({ env: { OLLAMA_HOST: '0.0.0.0:11500' } });
    expect(config.model.url).toBe('http://127.0.0.1:11500');
    const both = await resolveConfig({ env: { OLLAMA_HOST: 'x:1', HAMMER_LLM_URL: 'http://y:2' } });
    expect(both.config.model.url).toBe('http://y:2');
  });

  it('lets --config win over OLLAMA_HOST, and ignores OLLAMA_HOST for other providers', async () => {
    const file = join(dir, 'openai.toml');
    await writeFile(file, '[model]\nprovider = "openai"\n');
    const openai = await resolveConfig({ configFile: file, env: { OLLAMA_HOST: 'ollama-box:11434' } });
    expect(openai.config.model.url).toBe('http://localhost:11434');
    const withUrl = join(dir, 'url.toml');
    await writeFile(withUrl, '[model]\nurl = "http://gpu:11434"\n');
    const ollama = await resolveConfig({ configFile: withUrl, env: { OLLAMA_HOST: 'other:1' } });
    expect(ollama.config.model.url).toBe('http://gpu:11434');
  });
});

describe('OPENAI_BASE_URL', () => {
  it("sets the openai provider's URL below every hammer-box source, and never another provider's", async () => {
    const url = 'https://llm.example.com/v1';
    const openai = await resolveConfig({ env: { OPENAI_BASE_URL: url, HAMMER_PROVIDER: 'openai' } });
    expect(openai.config.model.url).toBe(url);
    expect(openai.sources.get('model.url')).toBe('OPENAI_BASE_URL');
    const flag = await resolveConfig({
      env: { OPENAI_BASE_URL: url },
      flags: { model: { provider: 'openai', url: 'http://gpu:8000' } },
    });
    expect(flag.config.model.url).toBe('http://gpu:8000');
    const ollama = await resolveConfig({ env: { OPENAI_BASE_URL: url, OLLAMA_HOST: 'gpu:11434' } });
    expect(ollama.config.model.url).toBe('http://gpu:11434');
    const plain = await resolveConfig({ env: { OPENAI_BASE_URL: url } });
    expect(plain.config.model.url).toBe('http://localhost:11434');
  });

  it('reads the API key from OPENAI_API_KEY by default', async () => {
    const { config } = await resolveConfig({ env: {} });
    expect(config.model.api_key_env).toBe('OPENAI_API_KEY');
  });
});

describe('ollamaHostToUrl', () => {
  it('accepts host, host:port and URLs', () => {
    expect(ollamaHostToUrl('gpu-box')).toBe('http://gpu-box:11434');
    expect(ollamaHostToUrl('gpu-box:9999')).toBe('http://gpu-box:9999');
    expect(ollamaHostToUrl('https://ollama.internal')).toBe('https://ollama.internal');
    expect(ollamaHostToUrl('http://ollama.internal')).toBe('http://ollama.internal');
  });
});

describe('[kubernetes] seccomp_profile and the workspace on Kubernetes', () => {
  it('takes RuntimeDefault or a localhost/ profile, and refuses a path that climbs', async () => {
    const file = join(dir, 'k.toml');
    await writeFile(file, '[kubernetes]\nseccomp_profile = "localhost/profiles/hammer.json"\n');
    expect((await resolveConfig({ env: {}, configFile: file })).config.kubernetes.seccomp_profile).toBe(
      'localhost/profiles/hammer.json',
    );
    for (const bad of ['Unconfined', 'localhost/../etc/x.json', 'Localhost', 'localhost/']) {
      await writeFile(file, `[kubernetes]\nseccomp_profile = "${bad}"\n`);
      const msg = await expectConfigError(resolveConfig({ env: {}, configFile: file }));
      expect(msg).toContain('k.toml:2: kubernetes.seccomp_profile');
    }
  });

  it('refuses workspace_size = 0 (an uncapped emptyDir) with engine = "kubernetes", naming the line', async () => {
    const file = join(dir, 'k.toml');
    await writeFile(file, '[sandbox]\nengine = "kubernetes"\nworkspace_size = 0\n');
    const msg = await expectConfigError(resolveConfig({ env: {}, configFile: file }));
    expect(msg).toContain('k.toml:3: sandbox.workspace_size: must be above 0 with engine = "kubernetes"');
    await writeFile(file, '[sandbox]\nworkspace_size = 0\n');
    expect((await resolveConfig({ env: {}, configFile: file })).config.sandbox.workspace_size).toBe(0);
  });
});
