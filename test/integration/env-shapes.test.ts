// Every environment shape (test/fixtures/env-shapes) through the real binary, with a scripted
// model and no --toolchain or --test-command: hammer-box detects the toolchain, resolves the
// version the repository declares, sets up its dependencies with the right package manager, and the
// run reaches stable. A table of shape, toolchain and version, setup and run seconds is printed
// at the end (figures, never assertions). Toolchain images are built once and kept; the env images
// the shapes made (a nonce makes them new each session) are removed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_SHAPES, answerWith, type EnvShape } from '../fixtures/env-shapes/index.js';
import { createFixtureRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { readStateFile, testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const docker = new Docker();
const made = new Set<string>();
const rows: string[][] = [];
let server: ModelServer;
let stateHome: string;

/** One line of the binary's stderr and when it came. */
interface TimedLine {
  at: number;
  text: string;
}

/** Run the built CLI, timing each stderr line (the model server lives in this process). */
function cli(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; lines: TimedLine[]; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let partial = '';
    const lines: TimedLine[] = [];
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      const parts = (partial + s).split('\n');
      partial = parts.pop() ?? '';
      for (const text of parts) lines.push({ at: performance.now() - start, text });
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, lines, ms: performance.now() - start }));
  });
}

/** Seconds between the first line matching `from` and the next matching `to`, or undefined. */
function span(lines: readonly TimedLine[], from: RegExp, to: RegExp): number | undefined {
  const a = lines.findIndex((l) => from.test(l.text));
  if (a < 0) return undefined;
  const b = lines.findIndex((l, i) => i > a && to.test(l.text));
  return b < 0 ? undefined : (lines[b]!.at - lines[a]!.at) / 1000;
}

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'`);
  stateHome = await mkdtemp(join(tmpdir(), 'hb-state-'));
  server = await startModelServer({ script: [] });
});

afterAll(async () => {
  await server?.close();
  await rm(stateHome, { recursive: true, force: true });
  for (const id of made)
    await docker
      .getImage(id)
      .remove()
      .catch(() => undefined);
  if (rows.length > 0) {
    const head = ['shape', 'toolchain', 'version (declared)', 'package manager', 'image build s', 'setup s', 'run s'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const fmt = (r: string[]): string => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
    process.stderr.write(`\nenvironment shapes\n${[head, ...rows].map(fmt).join('\n')}\n\n`);
  }
});

describe.each(ENV_SHAPES.map((s) => [s.name, s] as const))('%s', (_name, shape: EnvShape) => {
  it('is detected, set up with what it declares, and reaches stable through the CLI', async () => {
    // the default images of the shape's toolchain are there already (make images); another version builds in the run
    await toolchainImage(shape.expect.toolchain);
    const repo = await createFixtureRepo({ files: shape.files(randomBytes(6).toString('hex')) });
    const dir = await mkdtemp(join(tmpdir(), 'hb-directive-'));
    const directive = join(dir, 'DIRECTIVE.md');
    await writeFile(directive, `total() in ${shape.fixFile} returns the wrong sum. Fix it; do not change the tests.\n`);
    try {
      server.enqueue({ answer: answerWith(shape.fix) });
      const r = await cli(
        [
          'run',
          '--repo',
          repo.path,
          '--directive',
          directive,
          '--provider',
          'ollama',
          '--llm-url',
          server.url,
          '--model',
          'test-model',
          '--max-iterations',
          '2',
          '--json',
        ],
        testEnv({ XDG_STATE_HOME: stateHome }),
      );
      const stderr = r.lines.map((l) => l.text).join('\n');
      expect(r.stdout, stderr).not.toBe('');
      const result = JSON.parse(r.stdout) as { state_path: string; summary_path: string | null };
      const state = await readStateFile(result.state_path);
      if (state.image?.env) made.add(state.image.env.id);
      const final = state.iterations.at(-1)?.test;
      const why = `${state.reason_detail}\n${state.baseline?.stdout_tail}\n${state.baseline?.stderr_tail}\n${stderr}`;
      expect(state.status, why).toBe('stable');
      expect(r.code).toBe(0);
      expect(state.reason).toBe('tests_pass');
      expect(state.baseline?.command).toBe(shape.expect.testCommand);
      expect(state.baseline?.exit_code, why).not.toBe(0);
      expect(final?.exit_code).toBe(0);
      if (shape.expect.output) expect(`${final?.stdout_tail}${final?.stderr_tail}`).toContain(shape.expect.output);
      const tv = state.image?.toolchain_version;
      expect(tv?.toolchain).toBe(shape.expect.toolchain);
      expect(tv?.version).toMatch(shape.expect.version);
      if (shape.expect.packageManager) expect(tv?.package_manager).toMatch(shape.expect.packageManager);
      expect(state.image?.env !== null && state.image?.env !== undefined).toBe(shape.expect.envImage);
      const summary = await readFile(result.summary_path ?? '', 'utf8');
      expect(summary).toContain(`| Toolchain | ${shape.expect.toolchain} \`${tv?.version}\``);
      const build = span(r.lines, /^\s*building hammer-box\//, /Successfully tagged/);
      const setup = span(r.lines, /installing dependencies into/, /hammer-box: setup finished/);
      const s = (n: number | undefined): string => (n === undefined ? '-' : n.toFixed(1));
      rows.push([
        shape.name,
        tv?.toolchain ?? '?',
        `${tv?.version ?? '?'} (${tv?.declared ?? 'default'})`,
        tv?.package_manager ?? '-',
        s(build),
        s(setup),
        s(r.ms / 1000 - (build ?? 0) - (setup ?? 0)),
      ]);
    } finally {
      await repo.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
