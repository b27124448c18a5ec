// The monitor's runs list says what each row is: a run that stopped on an error shows its code and
// what to do, a replay and work handed over from chat are marked apart from model runs, a running
// run says the phase it is in, and why a run ended is in words. Runs written through the real
// RunStore (no Docker, no model), read in headless Chromium.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSources } from '../../src/api/run-sources.js';
import { startMonitorServer, type MonitorServer } from '../../src/monitor/server.js';
import { RunStore } from '../../src/state/store.js';
import { recordIterationPhase, startIteration } from '../../src/state/transitions.js';
import { addSampleIteration, startSampleRun, writeSampleRun } from '../helpers/monitor-runs.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../helpers/state-key.js';
import { launchBrowser } from './chromium.js';

const MODEL_RUN = '20261122T140501Z-aaaaaa';
const ERROR_RUN = '20261122T150501Z-bbbbbb';
const REPLAY_RUN = '20261122T160501Z-cccccc';
const CHAT_RUN = '20261122T170501Z-dddddd';
const RUNNING = '20261122T180501Z-eeeeee';
const BETWEEN = '20261122T190501Z-ffffff';
const TOKEN = 'monitor-list-test-token-0123456789abcdef';

let repo: string;
let server: MonitorServer;
let browser: { context: BrowserContext; close: () => Promise<void> };

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'hb-monitor-list-'));
  const store = new RunStore({ dir: join(repo, '.hammer'), key: TEST_STATE_KEY });
  const at = (h: number): Date => new Date(Date.UTC(2026, 10, 22, h, 5, 1));
  await writeSampleRun(store, { runId: MODEL_RUN, start: at(14), end: { status: 'failed', reason: 'max_iterations' } });
  const failed = await writeSampleRun(store, {
    runId: ERROR_RUN,
    start: at(15),
    iterations: 1,
    end: { status: 'error', reason: 'error' },
  });
  await store.write({
    ...failed,
    errors: [
      {
        at: failed.updated_at,
        code: 'MODEL_NOT_FOUND',
        message: 'model "qwen3-coder:30b" is not available on Ollama at http://localhost:11434; it has: llama3:8b',
        hint: 'pull it with: ollama pull qwen3-coder:30b, or pass --model naming one it has',
      },
    ],
  });
  const replay = await writeSampleRun(store, {
    runId: REPLAY_RUN,
    start: at(16),
    end: { status: 'stable', reason: 'tests_pass' },
  });
  await store.write({
    ...replay,
    model: { provider: 'replay', name: 'qwen3-coder:30b', url: '' },
    config: { ...replay.config, model: { provider: 'replay', replay_run: MODEL_RUN } },
  });
  const chat = await writeSampleRun(store, {
    runId: CHAT_RUN,
    start: at(17),
    end: { status: 'stable', reason: 'tests_pass' },
  });
  await store.write({ ...chat, directive: { ...chat.directive, path: 'chat 20261122T165000Z-q2w3e4' } });
  // running: iteration 2 started, its prompt read, its answer awaited
  let running = await addSampleIteration(store, await startSampleRun(store, { runId: RUNNING, start: at(18) }), {
    runId: RUNNING,
    start: at(18),
  });
  running = startIteration(running, at(18));
  running = recordIterationPhase(
    running,
    2,
    'read_state',
    { status: 'done', started_at: at(18).toISOString(), duration_ms: 3 },
    at(18),
  );
  await store.write(running);
  // running: between iterations (the first one finished)
  await addSampleIteration(store, await startSampleRun(store, { runId: BETWEEN, start: at(19) }), {
    runId: BETWEEN,
    start: at(19),
  });
  const sources = await RunSources.open({ repo, env: TEST_KEY_ENV });
  server = await startMonitorServer({ sources, port: 0, token: TOKEN });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (repo) await rm(repo, { recursive: true, force: true });
});

async function list(): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(server.url);
  return page;
}

const reason = (page: Page, runId: string) => page.locator(`tr[id="run-0-${runId}"] td.reason`);
const runCell = (page: Page, runId: string) => page.locator(`tr[id="run-0-${runId}"] td`).nth(1);

describe('the runs list', () => {
  it("shows an error row's code, message and what to do", async () => {
    const page = await list();
    const cell = reason(page, ERROR_RUN);
    expect(await cell.locator('code.error-code').textContent()).toBe('MODEL_NOT_FOUND');
    expect(await cell.textContent()).toContain(
      'is not available on Ollama at http://localhost:11434; it has: llama3:8b',
    );
    expect(await cell.locator('.hint').textContent()).toBe(
      'what to do: pull it with: ollama pull qwen3-coder:30b, or pass --model naming one it has',
    );
    await page.close();
  });

  it('marks a replay and a chat hand-off apart from a model run', async () => {
    const page = await list();
    const replay = runCell(page, REPLAY_RUN).locator('.mark');
    expect(await replay.textContent()).toBe('replay');
    expect(await replay.getAttribute('title')).toBe(`a replay of run ${MODEL_RUN}`);
    const chat = runCell(page, CHAT_RUN).locator('.mark');
    expect(await chat.textContent()).toBe('from chat');
    expect(await chat.getAttribute('title')).toBe('handed over from conversation 20261122T165000Z-q2w3e4');
    expect(await runCell(page, MODEL_RUN).locator('.mark').count()).toBe(0);
    await page.close();
  });

  it('says the phase a running run is in, and why an ended run ended in words', async () => {
    const page = await list();
    expect(await reason(page, RUNNING).textContent()).toBe('iteration 2: generate');
    expect(await reason(page, BETWEEN).textContent()).toBe('after iteration 1');
    const ended = reason(page, MODEL_RUN).locator('span');
    expect(await ended.textContent()).toBe('reached the iteration limit');
    expect(await ended.getAttribute('title')).toBe('max_iterations');
    await page.close();
  });
});
