// `hammer-box monitor` in headless Chromium: time to first render of a run with 100 iterations and
// 5 MB of test logs, and the delay from a state write to a live page showing it. The run is written
// through the real RunStore (no Docker, no model); the server is the monitor's own, in this process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { RunSources } from '../src/api/run-sources.js';
import { writeBundle } from '../src/monitor/bundle.js';
import { cookieName } from '../src/monitor/guard.js';
import { startMonitorServer, type MonitorServer } from '../src/monitor/server.js';
import type { RunState } from '../src/state/run-state.js';
import { RunStore } from '../src/state/store.js';
import { launchBrowser } from '../test/browser/chromium.js';
import { addSampleIteration, startSampleRun, type SampleRunOptions } from '../test/helpers/monitor-runs.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../test/helpers/state-key.js';
import { heading, printFigure } from './lib.js';

const ITERATIONS = 100;
const LOG_BYTES = Math.ceil((5 * 1024 * 1024) / ITERATIONS);
const COLD = 5;
const WARM = 10;
const LIVE = 15;

/** Milliseconds on the wall clock both node and the browser read (epoch, sub-millisecond). */
const now = (): number => performance.timeOrigin + performance.now();

/** Navigate and return the page's first contentful paint and its load event, from navigation start. */
async function render(page: Page, url: string): Promise<{ fcp: number; load: number }> {
  await page.goto(url, { waitUntil: 'load' });
  return page.evaluate<{ fcp: number; load: number }>(`(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return { fcp: fcp ? fcp.startTime : NaN, load: nav.loadEventEnd };
  })()`);
}

/** Resolves (in node) with the epoch time the page first showed `selector`. */
function shown(page: Page, selector: string): Promise<number> {
  return page.evaluate<number>(
    `new Promise((resolve) => {
      const at = () => performance.timeOrigin + performance.now();
      if (document.querySelector(${JSON.stringify(selector)})) return resolve(at());
      new MutationObserver((_, obs) => {
        if (document.querySelector(${JSON.stringify(selector)})) { obs.disconnect(); resolve(at()); }
      }).observe(document.body, { childList: true, subtree: true });
    })`,
  );
}

/** Run the monitor benchmark and print its figures. */
export async function benchMonitor(): Promise<void> {
  heading(
    `monitor: a run of ${ITERATIONS} iterations and ${((LOG_BYTES * ITERATIONS) / 1024 / 1024).toFixed(1)} MB of test logs, in headless Chromium`,
  );
  const repo = await mkdtemp(join(tmpdir(), 'hb-bench-monitor-'));
  const store = new RunStore({ dir: join(repo, '.hammer'), key: TEST_STATE_KEY });
  const o: SampleRunOptions = { runId: '20261122T140501Z-benchm', iterations: ITERATIONS, logBytes: LOG_BYTES };
  const browser = await launchBrowser();
  const servers: MonitorServer[] = [];
  try {
    let state: RunState = await startSampleRun(store, o);
    for (let i = 0; i < ITERATIONS; i++) state = await addSampleIteration(store, state, o);
    const sources = await RunSources.open({ repo, env: TEST_KEY_ENV });
    const path = `/run/0/${o.runId}/`;
    const page = await browser.context.newPage();

    // first render: a fresh server each time (nothing read or kept yet), then the same server again
    const cold = { fcp: [] as number[], load: [] as number[] };
    for (let i = 0; i < COLD; i++) {
      const fresh = await startMonitorServer({ sources: await RunSources.open({ repo, env: TEST_KEY_ENV }), port: 0 });
      servers.push(fresh);
      const origin = `http://127.0.0.1:${fresh.port}`;
      await browser.context.addCookies([{ name: cookieName(fresh.port), value: fresh.token, url: origin }]);
      const r = await render(page, `${origin}${path}`);
      cold.fcp.push(r.fcp);
      cold.load.push(r.load);
      await fresh.close();
      servers.pop();
    }
    const server = await startMonitorServer({ sources, port: 0 });
    servers.push(server);
    await page.goto(server.url);
    const url = `http://127.0.0.1:${server.port}${path}`;
    const warm = { fcp: [] as number[], load: [] as number[] };
    await render(page, url);
    for (let i = 0; i < WARM; i++) {
      const r = await render(page, url);
      warm.fcp.push(r.fcp);
      warm.load.push(r.load);
    }
    const size = Buffer.byteLength(await page.content());
    // the reference: the same page from a bundle on disk, the browser's work alone
    const out = join(repo, 'bundle');
    await writeBundle({ sources, out, runId: o.runId });
    const file = `file://${join(out, 'runs', `0-${o.runId}`, 'index.html')}`;
    const stat = { fcp: [] as number[], load: [] as number[] };
    await render(page, file);
    for (let i = 0; i < WARM; i++) {
      const r = await render(page, file);
      stat.fcp.push(r.fcp);
      stat.load.push(r.load);
    }
    process.stdout.write(`(the run page: ${(size / 1024).toFixed(0)} KiB of HTML)\n`);
    const reference = { name: 'the same page from a bundle on disk (browser only)', samples: stat.fcp };
    printFigure({
      name: 'first render, cold server (first contentful paint)',
      samples: cold.fcp,
      reference,
      targetMedian: 1000,
    });
    printFigure({
      name: 'first render, cold server (load event)',
      samples: cold.load,
      reference: { ...reference, samples: stat.load },
    });
    printFigure({
      name: 'first render, warm server (first contentful paint)',
      samples: warm.fcp,
      reference,
      targetMedian: 1000,
    });

    // live: a state write (its artifacts already on disk) until the open page shows the iteration
    await page.goto(url);
    await page.locator('#livestate').filter({ hasText: 'live' }).waitFor();
    const delays: number[] = [];
    for (let i = 0; i < LIVE; i++) {
      state = await addSampleIteration(store, state, o, false, false);
      const seen = shown(page, `#iter-${state.iterations.at(-1)!.n}`);
      await store.write(state);
      const written = now();
      delays.push((await seen) - written);
    }
    // the reference: the same, seen by reloading the page once the write is done
    const reloads: number[] = [];
    for (let i = 0; i < 5; i++) {
      state = await addSampleIteration(store, state, o, false, false);
      await store.write(state);
      const written = now();
      await page.reload({ waitUntil: 'commit' });
      reloads.push((await shown(page, `#iter-${state.iterations.at(-1)!.n}`)) - written);
    }
    printFigure({
      name: 'state write to the live page showing it',
      samples: delays,
      reference: { name: 'reloading the page after the write', samples: reloads },
      targetMedian: 200,
    });
    await page.close();
  } finally {
    for (const s of servers) await s.close();
    await browser.close();
    await rm(repo, { recursive: true, force: true });
  }
}
