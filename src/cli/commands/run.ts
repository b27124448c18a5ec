// `hammer-box run`
import { run } from '../../api/run.js';
import { interruptSignal } from '../interrupt.js';
import { progressRenderer } from '../progress.js';
import { printRunResult } from '../run-result.js';
import { printOutsideLine } from '../terminal-text.js';

interface RunFlags {
  repo: string;
  directive: string;
  base?: string;
  toolchain?: string;
  toolchainVersion?: string;
  image?: string;
  testCommand?: string;
  testTimeout?: number;
  maxIterations?: number;
  maxDiffLines?: number;
  provider?: string;
  model?: string;
  llmUrl?: string;
  config?: string;
  json?: boolean;
  logLevel?: string;
}

/** Flags as config keys (the highest-precedence layer). */
export function flagsToConfig(f: RunFlags): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  const set = (section: string, key: string, value: unknown): void => {
    if (value === undefined) return;
    out[section] ??= {};
    out[section][key] = value;
  };
  set('git', 'base', f.base);
  set('sandbox', 'toolchain', f.toolchain);
  set('sandbox', 'toolchain_version', f.toolchainVersion);
  set('sandbox', 'image', f.image);
  set('tools', 'test_command', f.testCommand);
  set('tools', 'test_timeout', f.testTimeout);
  set('loop', 'max_iterations', f.maxIterations);
  set('loop', 'max_diff_lines', f.maxDiffLines);
  set('model', 'provider', f.provider);
  set('model', 'name', f.model);
  set('model', 'url', f.llmUrl);
  return out;
}

export default async function runCommand(f: RunFlags): Promise<number> {
  const progress = progressRenderer();
  try {
    const outcome = await run({
      repo: f.repo,
      directive: f.directive,
      ...(f.config ? { configFile: f.config } : {}),
      flags: flagsToConfig(f),
      emit: progress,
      signal: interruptSignal(),
      ...(f.logLevel ? { logLevel: f.logLevel } : {}),
      onImageProgress: printOutsideLine,
    });
    return printRunResult(outcome, f.json === true);
  } finally {
    progress.stop();
  }
}
