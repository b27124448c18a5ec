// What a resumed or replayed run keeps from its record: never anything that decides trust.
import { describe, expect, it } from 'vitest';
import { applyRecorded, resolveResumeConfig } from '../../../src/api/resume-config.js';
import { resolveConfig } from '../../../src/config/resolve.js';

describe('applyRecorded', () => {
  it('takes the tests, the edit format and lower loop numbers; never the model, sandbox, policy, state or git', async () => {
    const { config: current } = await resolveConfig({ env: {} });
    const recorded = {
      ...structuredClone(current),
      sandbox: {
        ...current.sandbox,
        toolchain: 'node',
        memory: 64 * 1024 ** 3,
        pids_limit: 1_000_000,
        env: { A: 'b' },
      },
      tools: { ...current.tools, test_command: 'npm test', plugins: ['/tmp/evil.mjs'] },
      model: { ...current.model, url: 'http://attacker.example', api_key_env: 'GITHUB_TOKEN', edit_format: 'udiff' },
      loop: { max_iterations: 3, max_diff_lines: 100_000, max_unusable_answers: 1 },
      prompt: { ...current.prompt, budget_chars: 400_000_000, file_max_bytes: 1000 },
      git: { ...current.git, branch_prefix: 'evil/' },
      state: { dir: '../../outside-state' },
      policy: { ...current.policy, allow_sensitive: true },
    };
    const { config, taken } = applyRecorded(current, recorded);
    expect(config.sandbox).toEqual({ ...current.sandbox, toolchain: 'node' });
    expect(config.tools).toEqual({ ...current.tools, test_command: 'npm test' });
    expect(config.model).toEqual({ ...current.model, edit_format: 'udiff' });
    expect(config.loop).toEqual({ ...current.loop, max_iterations: 3, max_unusable_answers: 1 });
    expect(config.prompt).toEqual({ ...current.prompt, file_max_bytes: 1000 });
    expect(config.git).toEqual(current.git);
    expect(config.state).toEqual(current.state);
    expect(config.policy).toEqual(current.policy);
    expect(taken.sort()).toEqual(
      [
        'edits.strict',
        'loop.max_iterations',
        'loop.max_unusable_answers',
        'model.edit_format',
        'prompt.file_max_bytes',
        'sandbox.toolchain',
        'tools.test_command',
      ].sort(),
    );
  });

  it('keeps a replayed run replaying, and ignores a record that is not a config', async () => {
    const { config: current } = await resolveConfig({ env: {} });
    const replayed = applyRecorded(current, { model: { provider: 'replay', replay_run: '20261122T140501Z-abcdef' } });
    expect(replayed.config.model.provider).toBe('replay');
    expect(replayed.config.model.replay_run).toBe('20261122T140501Z-abcdef');
    expect(applyRecorded(current, 'nonsense').config).toEqual(current);
    expect(applyRecorded(current, { model: { provider: 'openai' } }).config.model).toEqual(current.model);
  });
});

describe('applyRecorded in agent mode', () => {
  it('keeps the recorded mode either way, and takes agent bounds only when they are lower', async () => {
    const { config: current } = await resolveConfig({ env: {} });
    const agent = applyRecorded(current, {
      loop: { mode: 'agent' },
      agent: { max_steps: 5, max_run_steps: 1_000_000, command_timeout: 30, max_seconds: 99_999 },
    });
    expect(agent.config.loop.mode).toBe('agent');
    expect(agent.config.agent).toEqual({ ...current.agent, max_steps: 5, command_timeout: 30 });
    expect(agent.taken.sort()).toEqual(['agent.command_timeout', 'agent.max_steps', 'loop.mode']);
    const diff = applyRecorded({ ...current, loop: { ...current.loop, mode: 'agent' } }, { loop: { mode: 'diff' } });
    expect(diff.config.loop.mode).toBe('diff');
  });
});

describe("resolveResumeConfig with resume's model flags", () => {
  const recorded = async () => {
    const { config } = await resolveConfig({ env: {} });
    return { config: { ...config, model: { ...config.model, url: 'http://recorded.example:11434', name: 'old' } } };
  };

  it('puts --provider/--model/--llm-url over the environment and flags, and never takes the recorded model', async () => {
    const env = { HAMMER_LLM_URL: 'http://env.example:11434', HAMMER_MODEL: 'from-env' };
    const plain = await resolveResumeConfig({ repo: '/nonexistent', env, recorded: await recorded() });
    expect(plain.config.model.url).toBe('http://env.example:11434');
    expect(plain.config.model.name).toBe('from-env');
    const { config, sources } = await resolveResumeConfig({
      repo: '/nonexistent',
      env,
      flags: { model: { name: 'from-flag' }, loop: { max_iterations: 4 } },
      recorded: await recorded(),
      model: { url: 'http://gpu-box:11434', provider: 'openai' },
    });
    expect(config.model).toMatchObject({ url: 'http://gpu-box:11434', provider: 'openai', name: 'from-flag' });
    expect(config.loop.max_iterations).toBe(4);
    expect(sources.get('model.url')).toBe('command line');
  });

  it('calls the named model instead of replaying a replayed run, and refuses a URL that is not one', async () => {
    const replayed = { config: { model: { provider: 'replay', replay_run: '20261122T140501Z-abcdef' } } };
    const still = await resolveResumeConfig({ repo: '/nonexistent', env: {}, recorded: replayed });
    expect(still.config.model.provider).toBe('replay');
    const moved = await resolveResumeConfig({
      repo: '/nonexistent',
      env: {},
      recorded: replayed,
      model: { provider: 'ollama', name: 'qwen3:8b' },
    });
    expect(moved.config.model.provider).toBe('ollama');
    expect(moved.config.model.name).toBe('qwen3:8b');
    await expect(
      resolveResumeConfig({ repo: '/nonexistent', env: {}, recorded: replayed, model: { url: 'gpu-box' } }),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
