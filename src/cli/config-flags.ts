// Command-line flags that set config keys: the highest-precedence config layer.

/** Flags that name a config key (every command takes the subset it offers). */
export interface ConfigFlags {
  base?: string;
  toolchain?: string;
  toolchainVersion?: string;
  image?: string;
  testCommand?: string;
  testTimeout?: number;
  maxIterations?: number;
  maxDiffLines?: number;
  mode?: string;
  provider?: string;
  model?: string;
  llmUrl?: string;
  keepEmptyBranch?: boolean;
  engine?: string;
  kubeContext?: string;
  trustedRepo?: boolean;
}

/** Flags as config keys; unset flags are left out. */
export function flagsToConfig(f: ConfigFlags): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const set = (section: string, key: string, value: unknown): void => {
    if (value === undefined) return;
    out[section] ??= {};
    out[section][key] = value;
  };
  set('git', 'base', f.base);
  set('git', 'keep_empty_branch', f.keepEmptyBranch);
  set('sandbox', 'toolchain', f.toolchain);
  set('sandbox', 'toolchain_version', f.toolchainVersion);
  set('sandbox', 'image', f.image);
  set('tools', 'test_command', f.testCommand);
  set('tools', 'test_timeout', f.testTimeout);
  set('loop', 'max_iterations', f.maxIterations);
  set('loop', 'max_diff_lines', f.maxDiffLines);
  set('loop', 'mode', f.mode);
  set('model', 'provider', f.provider);
  set('model', 'name', f.model);
  set('model', 'url', f.llmUrl);
  set('sandbox', 'engine', f.engine);
  set('sandbox', 'trusted_repo', f.trustedRepo);
  set('kubernetes', 'context', f.kubeContext);
  return out;
}
