// A task's settings as the config keys its run gets: the command-line layer of that run, over the
// batch's own flags. Pure.
import type { Task } from './task-schema.js';

type Layer = Record<string, Record<string, unknown>>;

/**
 * The config flags of a task's run: the batch's `flags`, then the task's fields (its commit as
 * `git.base`, toolchain, test command and timeout, iteration limit, mode, model name), and its `env`
 * over `configEnv` ([sandbox] env of the batch's configuration; a flag replaces that table whole).
 */
export function taskFlags(
  task: Pick<
    Task,
    'toolchain' | 'toolchainVersion' | 'testCommand' | 'testTimeout' | 'maxIterations' | 'env' | 'mode' | 'model'
  >,
  commit: string,
  flags: Readonly<Record<string, unknown>>,
  configEnv: Readonly<Record<string, string>>,
): Layer {
  const out: Layer = {};
  for (const [section, value] of Object.entries(flags)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      out[section] = { ...(value as Record<string, unknown>) };
  }
  const set = (section: string, key: string, value: unknown): void => {
    if (value === undefined) return;
    out[section] ??= {};
    out[section][key] = value;
  };
  set('git', 'base', commit);
  set('sandbox', 'toolchain', task.toolchain);
  set('sandbox', 'toolchain_version', task.toolchainVersion);
  if (task.env !== undefined) {
    const base = (out['sandbox']?.['env'] as Record<string, string> | undefined) ?? configEnv;
    set('sandbox', 'env', { ...base, ...task.env });
  }
  set('tools', 'test_command', task.testCommand);
  set('tools', 'test_timeout', task.testTimeout);
  set('loop', 'max_iterations', task.maxIterations);
  set('loop', 'mode', task.mode);
  set('model', 'name', task.model);
  return out;
}
