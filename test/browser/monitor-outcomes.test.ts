// The monitor's badge in headless Chromium says each run's outcome in its own colour: green only for
// a stable run; a run an older hammer-box recorded `stable (baseline_failures_remain)` while one of
// its targeted tests still fails shows orange `partial` on the list and its page (the colour the
// browser computes from the style sheet), and the filter lists it under partial.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSources } from '../../src/api/run-sources.js';
import { startMonitorServer, type MonitorServer } from '../../src/monitor/server.js';
import type { RunState, TestRecord } from '../../src/state/run-state.js';
import { RunStore } from '../../src/state/store.js';
import { writeSampleRun } from '../helpers/monitor-runs.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../helpers/state-key.js';
import { launchBrowser } from './chromium.js';

const STABLE = '20261122T140501Z-aaaaaa';
const PARTIAL = '20261123T140501Z-bbbbbb';
const UNTESTED = '20261124T140501Z-cccccc';
const TOKEN = 'monitor-outcomes-token-0123456789abcdefgh';

/** The colours monitor.css gives the outcome badges, as the browser computes them. */
const GREEN = 'rgb(218, 251, 225)';
const ORANGE = 'rgb(255, 241, 229)';
const PURPLE = 'rgb(251, 239, 255)';

let repo: string;
let server: MonitorServer;
let browser: { context: BrowserContext; close: () => Promise<void> };

/** What pytest said: these tests failing. */
function failing(record: TestRecord, names: string[]): TestRecord {
  return {
    ...record,
    exit_code: names.length === 0 ? 0 : 1,
    parsed: {
      runners: ['pytest'],
      failing: names.map((name) => ({
        runner: 'pytest',
        scope: 'test',
        id: `tests/test_calc.py::${name}`,
        name,
        package: null,
        file: 'tests/test_calc.py',
        line: 4,
      })),
      counts: [{ runner: 'pytest', passed: 12, failed: names.length }],
    },
  };
}

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'hb-monitor-outcomes-'));
  const store = new RunStore({ dir: join(repo, '.hammer'), key: TEST_STATE_KEY });
  await writeSampleRun(store, { runId: STABLE, iterations: 1, end: { status: 'stable', reason: 'tests_pass' } });
  // the finding: the directive names the test file, two of its tests failed at baseline, the patch
  // fixed one, and the run was recorded stable
  const partial = await writeSampleRun(store, {
    runId: PARTIAL,
    start: new Date('2026-11-23T14:05:01Z'),
    iterations: 1,
    end: { status: 'stable', reason: 'baseline_failures_remain' },
  });
  const last = partial.iterations[0]!;
  const older: RunState = {
    ...partial,
    directive: { ...partial.directive, text: 'Make all tests in tests/test_calc.py pass.\n' },
    baseline: failing(partial.baseline!, ['test_add', 'test_sub']),
    iterations: [{ ...last, test: failing(last.test!, ['test_sub']) }],
  };
  await store.write(older);
  const untested = await writeSampleRun(store, {
    runId: UNTESTED,
    start: new Date('2026-11-24T14:05:01Z'),
    iterations: 1,
    end: { status: 'untested', reason: 'no_tests' },
  });
  const none = (t: TestRecord): TestRecord => ({
    ...t,
    exit_code: 5,
    parsed: { runners: [], failing: [], counts: [], no_tests: true },
  });
  await store.write({
    ...untested,
    baseline: none(untested.baseline!),
    iterations: untested.iterations.map((it) => ({ ...it, test: none(it.test!) })),
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

async function signedIn(): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(server.url);
  return page;
}

/** The background colour the browser computes for the first element `selector` finds. */
function badgeColour(page: Page, selector: string): Promise<string> {
  return page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor`);
}

describe('outcome badges', () => {
  it('colour each run by its outcome on the list: green only for stable', async () => {
    const page = await signedIn();
    const badge = (id: string): string => `tr[id="run-0-${id}"] td .badge`;
    expect(await page.locator(badge(PARTIAL)).textContent()).toBe('partial');
    expect(await badgeColour(page, badge(STABLE))).toBe(GREEN);
    expect(await badgeColour(page, badge(PARTIAL))).toBe(ORANGE);
    expect(await badgeColour(page, badge(UNTESTED))).toBe(PURPLE);
    // the tooltip says why
    expect(await page.locator(badge(PARTIAL)).getAttribute('title')).toMatch(
      /^1 of the 2 targeted tests \(in the test files the directive names\) passes now; 1 still fails: tests\/test_calc\.py::test_sub$/,
    );
    // filtered by outcome, not by the status the older file recorded
    await page.click('nav.filter a.f-stable');
    expect(await page.locator('table.runs a.run-link').allTextContents()).toEqual([STABLE]);
    await page.click('nav.filter a.f-partial');
    expect(await page.locator('table.runs a.run-link').allTextContents()).toEqual([PARTIAL]);
    await page.close();
  });

  it("colour the run page's badge the same way", async () => {
    const page = await signedIn();
    await page.click(`a.run-link:text("${PARTIAL}")`);
    expect(await page.locator('.run-status .badge').first().textContent()).toBe('partial');
    expect(await badgeColour(page, '.run-status .badge')).toBe(ORANGE);
    expect(await page.title()).toMatch(/^partial · /);
    await page.goto(server.url);
    await page.click(`a.run-link:text("${STABLE}")`);
    expect(await badgeColour(page, '.run-status .badge')).toBe(GREEN);
    await page.close();
  });
});
