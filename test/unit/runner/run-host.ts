// Runs the runner script on the host with /bin/sh and the host's git, in a temp workspace.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PATCH_DIR, runnerArgv, splitRunnerOutput } from '../../../src/runner/index.js';
import type { RunnerOp, RunnerResult } from '../../../src/runner/index.js';

export interface HostRun {
  status: number;
  output: string;
  stderr: string;
  result: RunnerResult | undefined;
  stdout: string;
}

/** A temp workspace holding `files`, plus helpers to run ops in it. */
export async function makeWorkspace(
  files: Record<string, string>,
  /** Directories searched before the host's PATH (stand-ins for tools). */
  pathFirst: readonly string[] = [],
): Promise<{
  dir: string;
  run: (op: RunnerOp, ...args: string[]) => HostRun;
  putPatch: (name: string, text: string) => Promise<string>;
  cleanup: () => Promise<void>;
}> {
  const root = await mkdtemp(path.join(tmpdir(), 'hb-runner-'));
  const dir = path.join(root, 'ws');
  await mkdir(dir);
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), content);
  }
  const env = { PATH: [...pathFirst, process.env.PATH ?? '/usr/bin:/bin'].join(':'), HOME: root, LANG: 'C.UTF-8' };
  return {
    dir,
    run(op, ...args) {
      const [cmd, ...rest] = runnerArgv(op, ...args);
      const r = spawnSync(cmd!, rest, { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
      const { output, result } = splitRunnerOutput(r.stdout);
      return { status: r.status ?? -1, output, stderr: r.stderr, result, stdout: r.stdout };
    },
    async putPatch(name, text) {
      await mkdir(path.join(dir, PATCH_DIR), { recursive: true });
      await writeFile(path.join(dir, PATCH_DIR, name), text);
      return `${PATCH_DIR}/${name}`;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** Run host git in `dir` with a clean environment (used for controls and for inspecting results). */
export function hostGit(dir: string, ...args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
