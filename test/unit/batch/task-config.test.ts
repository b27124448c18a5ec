// A task's fields as its run's command-line config layer.
import { describe, expect, it } from 'vitest';
import { taskFlags } from '../../../src/batch/task-config.js';

describe('taskFlags', () => {
  it('puts the task over the batch flags, with its commit as the base', () => {
    const flags = taskFlags(
      { testCommand: 'make test', maxIterations: 3, model: 'other', mode: 'agent', toolchain: 'go', testTimeout: 60 },
      'c'.repeat(40),
      { model: { name: 'm', url: 'http://x' }, loop: { max_iterations: 9 } },
      {},
    );
    expect(flags).toEqual({
      model: { name: 'other', url: 'http://x' },
      loop: { max_iterations: 3, mode: 'agent' },
      git: { base: 'c'.repeat(40) },
      sandbox: { toolchain: 'go' },
      tools: { test_command: 'make test', test_timeout: 60 },
    });
  });

  it("adds the task's env to the configuration's, and leaves sandbox.env alone when the task sets none", () => {
    expect(taskFlags({ env: { B: '2' } }, 'c', {}, { A: '1', B: '1' }).sandbox).toEqual({ env: { A: '1', B: '2' } });
    expect(taskFlags({}, 'c', {}, { A: '1' }).sandbox).toBeUndefined();
  });

  it('never changes the flags it was given', () => {
    const given = { model: { name: 'm' } };
    taskFlags({ model: 'x' }, 'c', given, {});
    expect(given).toEqual({ model: { name: 'm' } });
  });
});
