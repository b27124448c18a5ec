// What a resumed or replayed run keeps from its record: never anything that decides trust.
import { describe, expect, it } from 'vitest';
import { applyRecorded } from '../../../src/api/resume-config.js';
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
