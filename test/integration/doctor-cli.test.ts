// The built binary's `doctor`: exit codes, --json and the human report, against the real engine and a
// real (scripted) model server. Needs `npx tsc -p tsconfig.json` (make build) first.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolchainImage } from '../helpers/images.js';
import { DEFAULT_TEST_MODEL, startModelServer, type ModelServer } from '../helpers/model-server.js';

const MAIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');

const ReportSchema = z.object({
  ok: z.boolean(),
  checks: z.array(
    z.object({
      name: z.string(),
      status: z.enum(['ok', 'warn', 'fail']),
      detail: z.string(),
      hint: z.string().optional(),
    }),
  ),
  engine: z.object({ serverVersion: z.string(), runtimes: z.array(z.string()) }).nullable(),
});

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the built hammer-box with only the given hammer-box settings in its environment. */
function hammerBox(args: string[], extra: Record<string, string>): Promise<CliResult> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('HAMMER_') && k !== 'OLLAMA_HOST'),
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { env: { ...env, ...extra }, timeout: 120_000 },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A port nothing listens on: bound by us, then closed. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const address = srv.address();
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let withModel: ModelServer;
let withoutModel: ModelServer;
let dir: string;

beforeAll(async () => {
  if (!existsSync(MAIN))
    throw new Error(`${MAIN} is missing: build first with 'npx tsc -p tsconfig.json' (make build)`);
  await toolchainImage();
  withModel = await startModelServer({ script: [] });
  withoutModel = await startModelServer({ models: ['some-other-model'], script: [] });
  dir = await mkdtemp(join(tmpdir(), 'hb-doctor-cli-'));
});

afterAll(async () => {
  await withModel.close();
  await withoutModel.close();
  await rm(dir, { recursive: true, force: true });
});

describe('hammer-box doctor', () => {
  it('prints one line per check and exits 0 when everything a run needs is there', async () => {
    const r = await hammerBox(['doctor'], { HAMMER_LLM_URL: withModel.url, HAMMER_MODEL: DEFAULT_TEST_MODEL });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.find((l) => l.startsWith('ok    engine '))).toMatch(/Docker \S+ \(API /);
    expect(lines.find((l) => l.startsWith('ok    toolchain image '))).toContain('hammer-box/python:');
    expect(lines.find((l) => l.startsWith('ok    model '))).toContain(`has ${DEFAULT_TEST_MODEL}`);
    expect(lines.some((l) => l.startsWith('FAIL'))).toBe(false);
    expect(lines.at(-1)).toMatch(/^ready/);
  });

  it('--json: FAIL with the ollama pull step when the server lacks the model, exit 3', async () => {
    const r = await hammerBox(['doctor', '--json'], {
      HAMMER_LLM_URL: withoutModel.url,
      HAMMER_MODEL: DEFAULT_TEST_MODEL,
    });
    expect(r.code).toBe(3);
    const report = ReportSchema.parse(JSON.parse(r.stdout));
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.name === 'engine')?.status).toBe('ok');
    const model = report.checks.find((c) => c.name === 'model');
    expect(model?.status).toBe('fail');
    expect(model?.detail).toContain(`pull it with: ollama pull ${DEFAULT_TEST_MODEL}`);
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.name)).toEqual(['model']);
    expect(withoutModel.requests.map((q) => q.path)).toEqual(['/api/tags']);
  });

  it('FAIL with the ollama serve step when nothing listens at the model URL, exit 3', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const json = await hammerBox(['doctor', '--json'], { HAMMER_LLM_URL: url, HAMMER_MODEL: DEFAULT_TEST_MODEL });
    expect(json.code).toBe(3);
    const model = ReportSchema.parse(JSON.parse(json.stdout)).checks.find((c) => c.name === 'model');
    expect(model?.status).toBe('fail');
    expect(model?.detail).toContain('start it with: ollama serve');
    const human = await hammerBox(['doctor'], { HAMMER_LLM_URL: url, HAMMER_MODEL: DEFAULT_TEST_MODEL });
    expect(human.code).toBe(3);
    expect(human.stdout).toMatch(/^FAIL {2}model {2,}cannot reach Ollama at .*ollama serve$/m);
    expect(human.stdout.trimEnd().split('\n').at(-1)).toMatch(/^not ready: 1 check failed/);
  });

  it('--provider, --model and --llm-url check that server, over every other source', async () => {
    const openai = await startModelServer({ models: ['flag-model'], script: [] });
    try {
      const r = await hammerBox(
        ['doctor', '--json', '--provider', 'openai', '--model', 'flag-model', '--llm-url', `${openai.url}/v1`],
        { HAMMER_LLM_URL: withoutModel.url, HAMMER_MODEL: DEFAULT_TEST_MODEL, OPENAI_API_KEY: 'sk-test' },
      );
      const report = ReportSchema.parse(JSON.parse(r.stdout));
      expect(report.checks.find((c) => c.name === 'config')?.detail).toMatch(/^openai flag-model at /);
      expect(report.checks.find((c) => c.name === 'model')?.status).toBe('ok');
      expect(openai.requests.map((q) => q.path)).toEqual(['/v1/models']);
      expect(openai.requests[0]?.headers.authorization).toBe('Bearer sk-test');
      expect(withoutModel.requests.filter((q) => q.path !== '/api/tags')).toEqual([]);
    } finally {
      await openai.close();
    }
  });

  it('exits 2 naming file, line and key when the --config file is invalid', async () => {
    const file = join(dir, 'bad.toml');
    await writeFile(file, '[loop]\nmax_iterations = 0\n');
    const r = await hammerBox(['doctor', '--config', file], {});
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('[CONFIG_INVALID]');
    expect(r.stderr).toContain(`${file}:2: loop.max_iterations`);
  });
});
