// The sandbox a run asks for, from the config: limits, user and the only environment it gets.
import type { Config } from '../config/schema.js';
import type { SandboxSpec } from '../sandbox/types.js';

/** Variables every sandbox gets (on a read-only root, home and temp are the /tmp tmpfs). */
export const BASE_SANDBOX_ENV: Readonly<Record<string, string>> = {
  // tells the runner it may kill leftover processes of the sandbox user (never set on a host)
  HAMMER_SANDBOX: '1',
  HOME: '/tmp',
  TMPDIR: '/tmp',
  LANG: 'C.UTF-8',
  // the same clock zone and string hashing in every sandbox, so runs of one task (a batch's
  // attempts, a replay) do not differ by where or when they ran ([sandbox] env may set others)
  TZ: 'UTC',
  PYTHONHASHSEED: '0',
  CI: 'true',
  PYTHONDONTWRITEBYTECODE: '1',
  PIP_NO_INDEX: '1',
};

/** A SandboxSpec from the config: nothing from the host environment goes in unless listed in [sandbox] env. */
export function sandboxSpec(config: Config, runId: string, image: string): SandboxSpec {
  const s = config.sandbox;
  return {
    image,
    runId,
    user: s.user,
    limits: {
      memoryBytes: s.memory,
      nanoCpus: Math.round(s.cpus * 1e9),
      pidsLimit: s.pids_limit,
      tmpBytes: s.tmp_size,
      workspaceBytes: s.workspace_size,
      nofile: s.nofile,
      runtime: s.runtime,
    },
    env: { ...BASE_SANDBOX_ENV, ...s.env },
  };
}
