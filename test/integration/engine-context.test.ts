// Engine discovery through a real docker context: a temp DOCKER_CONFIG whose config.json's current
// context points (through a link of its own) at the local engine's socket, used by the built binary:
// doctor names the engine and why, gc reaches it, `run --verbose` says which engine the run used and
// the runtime notice; a DOCKER_CONTEXT that does not exist is a failed engine check saying what to do.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, FIX_PATCH, type PythonFixture } from '../helpers/python-fixture.js';
import { testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const CONTEXT = 'hb-test-context';

let dir: string;
let configDir: string;
let socket: string;
let host: string;
let env: NodeJS.ProcessEnv;

function cli(
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...env, ...extra }, stdio: 'pipe' });
    child.stdin.end('');
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'`);
  dir = await tempDir('hb-context-');
  configDir = join(dir, 'docker-config');
  // the local engine: DOCKER_HOST's socket, else the default one, reached through a link only the context names
  const local = process.env['DOCKER_HOST']?.startsWith('unix://')
    ? process.env['DOCKER_HOST'].slice('unix://'.length)
    : '/var/run/docker.sock';
  socket = join(dir, 'engine.sock');
  await symlink(local, socket);
  host =
    process.env['DOCKER_HOST'] && !process.env['DOCKER_HOST'].startsWith('unix://')
      ? process.env['DOCKER_HOST']
      : `unix://${socket}`;
  const meta = join(configDir, 'contexts', 'meta', createHash('sha256').update(CONTEXT).digest('hex'));
  await mkdir(meta, { recursive: true });
  await writeFile(
    join(meta, 'meta.json'),
    JSON.stringify({ Name: CONTEXT, Metadata: {}, Endpoints: { docker: { Host: host, SkipTLSVerify: false } } }),
  );
  await writeFile(join(configDir, 'config.json'), JSON.stringify({ currentContext: CONTEXT }));
  env = testEnv({ DOCKER_CONFIG: configDir });
  delete env['DOCKER_HOST'];
  delete env['DOCKER_CONTEXT'];
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** doctor's checks, by name. */
async function doctorChecks(
  extra: Record<string, string> = {},
): Promise<Map<string, { status: string; detail: string; hint?: string }>> {
  const r = await cli(['doctor', '--json'], extra);
  const report = JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string; hint?: string }[] };
  return new Map(report.checks.map((c) => [c.name, c]));
}

describe('the current docker context of DOCKER_CONFIG/config.json', () => {
  it('is the engine doctor checks, named with the reason it was chosen', async () => {
    const engine = (await doctorChecks()).get('engine');
    expect(engine?.status).toBe('ok');
    expect(engine?.detail).toContain(
      `at ${host} (context ${CONTEXT} from ${join(configDir, 'config.json')} (DOCKER_CONFIG))`,
    );
  });

  it('is the engine gc cleans up', async () => {
    const r = await cli(['gc', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ containers: expect.any(Array), volumes: expect.any(Array) });
  });

  it('gives way to DOCKER_CONTEXT, which fails the engine check when it names no context', async () => {
    const engine = (await doctorChecks({ DOCKER_CONTEXT: 'hb-no-such-context' })).get('engine');
    expect(engine).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^DOCKER_CONTEXT names the context "hb-no-such-context", which does not exist/),
      hint: expect.stringContaining('docker context ls'),
    });
  });
});

describe('run --verbose through the context', () => {
  let fx: PythonFixture;
  let server: ModelServer;
  beforeAll(async () => {
    await toolchainImage('python');
    fx = await createPythonFixture();
    server = await startModelServer({ script: [{ answer: answerWith(FIX_PATCH) }] });
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
  });

  it('says which engine the run uses and why, and the runtime its sandboxes keep', async () => {
    const r = await cli([
      'run',
      '--repo',
      fx.repo.path,
      '--directive',
      fx.directive,
      '--model',
      'test-model',
      '--llm-url',
      server.url,
      '--max-iterations',
      '1',
      '--verbose',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    const started = lines.findIndex((l) => l.startsWith('hammer-box: run '));
    expect(lines[started + 1]).toMatch(
      new RegExp(
        `^hammer-box: engine: Docker \\S+, linux/\\w+ at ${host.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(context ${CONTEXT} from `,
      ),
    );
    expect(lines[started + 2]).toMatch(/^hammer-box: sandboxes run with runc, the engine's default/);
  });
});
