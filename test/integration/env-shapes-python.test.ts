// Python shapes of real repositories through the real CLI, with a scripted model and no
// --toolchain or --test-command: each is detected, set up (offline here: through Debian's build
// backends, or its test dependencies only with the sources on the path), and reaches stable.
// Prints a table of shape, toolchain, setup seconds and run seconds (figures, never asserted).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';
import { pythonShapes } from '../fixtures/env-shapes/python.js';
import { createFixtureRepo, tempDir } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { readStateFile, testEnv } from './run-support.js';

const docker = new Docker();
const made = new Set<string>();
const rows: string[][] = [];
let server: ModelServer;
let stateHome: string;

beforeAll(async () => {
  await toolchainImage('python');
  server = await startModelServer({ models: ['test-model'], script: [] });
  stateHome = await mkdtemp(join(tmpdir(), 'hb-state-'));
});

afterAll(async () => {
  await server?.close();
  await rm(stateHome, { recursive: true, force: true });
  for (const id of made)
    await docker
      .getImage(id)
      .remove({ force: true })
      .catch(() => undefined);
  if (rows.length > 0) {
    const table = [['shape', 'toolchain', 'setup s', 'run s', 'setup step'], ...rows];
    process.stdout.write(`\n${table.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`);
  }
});

describe.each(pythonShapes(randomBytes(6).toString('hex')))('$name', (shape) => {
  it('is detected, set up and reaches stable through the CLI', async () => {
    const repo = await createFixtureRepo({ files: shape.files });
    const dir = await tempDir('hb-shape-');
    try {
      const directive = join(dir, 'DIRECTIVE.md');
      const config = join(dir, 'config.toml');
      await writeFile(directive, shape.directive);
      await writeFile(
        config,
        `[model]\nprovider = "ollama"\nurl = "${server.url}"\nname = "test-model"\nretries = 0\n[loop]\nmax_iterations = 2\n`,
      );
      server.enqueue({ answer: `The loop subtracts.\n\n\`\`\`diff\n${shape.fix}\`\`\`\n` });
      const t0 = Date.now();
      const cli = join(packageRoot(), 'dist', 'cli', 'main.js');
      const result = await promisify(execFile)(
        process.execPath,
        [cli, 'run', '--repo', repo.path, '--directive', directive, '--config', config, '--json'],
        { env: testEnv({ XDG_STATE_HOME: stateHome }), maxBuffer: 64 * 1024 * 1024 },
      ).catch((err: { stdout: string; stderr: string }) => err);
      const seconds = (Date.now() - t0) / 1000;
      const doc = JSON.parse(result.stdout) as { state_path: string; status?: string };
      const state = await readStateFile(doc.state_path);
      if (state.image?.env) made.add(state.image.env.id);
      expect(state.status, `${result.stderr.slice(-4000)}`).toBe('stable');
      expect(state.reason).toBe('tests_pass');
      expect(state.environment?.toolchain).toBe(shape.toolchain);
      expect(state.environment?.test_command).toBe('python3 -m pytest -q');
      expect(result.stderr).toContain(`hammer-box: toolchain ${shape.toolchain}`);
      expect(state.baseline?.exit_code).not.toBe(0);
      const steps = state.environment?.setup_steps ?? [];
      const done = steps.find((s) => s.outcome === 'succeeded');
      rows.push([
        shape.name,
        state.environment?.line.replace(/, test command.*$/, '') ?? '',
        ((state.phases.setup?.duration_ms ?? 0) / 1000).toFixed(1),
        seconds.toFixed(1),
        done ? `${done.n} (${done.name})` : 'cached',
      ]);
    } finally {
      await repo.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
