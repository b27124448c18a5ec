// Image benchmarks: the cost of asking for an unchanged toolchain image (hash the context, inspect
// the tag; never a rebuild), the second run of an unchanged repository with dependencies reaching
// its first model request from its env image (no build, no setup), and the size of each image.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  bootstrapBase,
  ensureToolchainImage,
  listImages,
  planToolchainImage,
  toolchainNames,
} from '../src/images/index.js';
import { packageRoot } from '../src/paths.js';
import { createDockerClient } from '../src/sandbox/index.js';
import { RunStore } from '../src/state/store.js';
import { loadStateKey } from '../src/state/state-key.js';
import { benchEnv, makeGitRepo, removeDir, safeJson, startScriptedOllama, type ScriptedOllama } from './fixtures.js';
import { heading, printFigure, sample } from './lib.js';

const mb = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(0)} MB`;
const SECOND_RUN_N = 5;
const RunJsonSchema = z.object({ run_id: z.string() });

/** Print the image figures. */
export async function benchImages(): Promise<void> {
  const docker = createDockerClient();
  heading('images');
  await bootstrapBase(docker);
  for (const name of toolchainNames()) {
    const first = await ensureToolchainImage(docker, name);
    printFigure({
      name: `plan ${name} image (read + hash build context)`,
      samples: await sample(20, () => planToolchainImage(docker, name)),
    });
    printFigure({
      name: `ensure unchanged ${name} image (${first.built ? 'built just now' : 'cached'})`,
      samples: await sample(20, async () => {
        const again = await ensureToolchainImage(docker, name);
        if (again.built) throw new Error(`${name} was rebuilt although unchanged`);
      }),
    });
  }
  await benchSecondRun();
  for (const image of await listImages(docker)) {
    process.stdout.write(
      `${'image size'.padEnd(12)} ${image.tag.padEnd(40)} ${mb(image.sizeBytes).padStart(8)}  (${image.kind} ${image.toolchain})\n`,
    );
  }
}

/** A node repository whose package-lock.json pins is-number: its env image is made once (warm-up). */
function nodeRepoFiles(): Record<string, string> {
  const lock = {
    name: 'calc',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'calc', version: '1.0.0', dependencies: { 'is-number': '7.0.0' } },
      'node_modules/is-number': {
        version: '7.0.0',
        resolved: 'https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz',
        integrity: 'sha512-41Cifkg6e8TylSpdtTpeLVMqvSBEVzTttHvERD741+pnZ8ANv0004MRL43QKPDlK9cGvNp6NZWZUBlbGXYxxng==',
      },
    },
  };
  return {
    'package.json': `${JSON.stringify({ name: 'calc', version: '1.0.0', private: true, scripts: { test: 'node test.js' }, dependencies: { 'is-number': '7.0.0' } }, null, 2)}\n`,
    'package-lock.json': `${JSON.stringify(lock, null, 2)}\n`,
    'test.js': "const assert = require('assert');\nassert.ok(require('is-number')(5));\n",
  };
}

/** `hammer-box run` of an unchanged node repository with a dependency: spawn -> first /api/chat, env image reused. */
async function benchSecondRun(): Promise<void> {
  heading('images: second run of an unchanged repository (env image reused) to the first model request');
  const root = packageRoot();
  const cli = join(root, 'dist', 'cli', 'main.js');
  if (!existsSync(cli)) throw new Error('build the CLI first (make build)');
  const server = await startScriptedOllama(() => 'NO_CHANGES', 'bench-model');
  const repo = await makeGitRepo(nodeRepoFiles(), 'hb-bench-env-');
  const scratch = await mkdtemp(join(tmpdir(), 'hb-bench-env-'));
  // the runs keep their state home (and so their state key) in the scratch directory: read with it
  const store = new RunStore({
    dir: join(repo, '.hammer'),
    key: await loadStateKey({ ...benchEnv(), XDG_STATE_HOME: scratch }),
  });
  const samples: number[] = [];
  const envIds = new Set<string>();
  try {
    const directive = join(scratch, 'directive.md');
    await writeFile(directive, 'Keep test.js passing.\n');
    const warm = await oneRun(cli, root, repo, directive, server, scratch);
    process.stdout.write(`(warm-up run, which makes the env image if missing: ${(warm.ms / 1000).toFixed(1)} s)\n`);
    for (let i = 0; i < SECOND_RUN_N; i++) {
      const r = await oneRun(cli, root, repo, directive, server, scratch);
      samples.push(r.ms);
      const state = await store.read(r.runId);
      envIds.add(state.image?.env?.id ?? 'none');
    }
  } finally {
    await server.close();
    await removeDir(repo);
    await removeDir(scratch);
  }
  if (envIds.size !== 1 || envIds.has('none'))
    throw new Error(`the runs did not share one env image: ${[...envIds].join(', ')}`);
  printFigure({ name: 'spawn -> first /api/chat (npm test baseline included)', samples, targetMedian: 2000 });
}

/** One `hammer-box run` of `repo` through the CLI: its run id and the time from spawn to its first model request. */
export async function oneRun(
  cli: string,
  cwd: string,
  repo: string,
  directive: string,
  server: ScriptedOllama,
  stateHome: string,
): Promise<{ runId: string; ms: number }> {
  server.reset();
  let firstChat = Number.NaN;
  server.onChat = () => void (Number.isNaN(firstChat) && (firstChat = performance.now()));
  const args = [
    cli,
    'run',
    '--repo',
    repo,
    '--directive',
    directive,
    '--max-iterations',
    '1',
    '--provider',
    'ollama',
    '--model',
    'bench-model',
    '--llm-url',
    server.url,
    '--json',
  ];
  const spawned = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...benchEnv(), XDG_STATE_HOME: stateHome },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => void (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => void (stderr = (stderr + c).slice(-4000)));
  const code = await new Promise<number | null>((done, fail) => child.once('error', fail).once('close', done));
  server.onChat = undefined;
  const parsed = RunJsonSchema.safeParse(safeJson(stdout));
  if (!parsed.success || Number.isNaN(firstChat))
    throw new Error(
      `hammer-box run exited ${code} without ${parsed.success ? 'asking the model' : 'its --json result'}:\n${stderr}`,
    );
  return { runId: parsed.data.run_id, ms: firstChat - spawned };
}
