// `hammer-box monitor` in headless Chromium: the list, a run page with its diff and failing test,
// live updates, hostile names and output shown as text (a canary script never runs), the token,
// the Host check, and the static bundle opened from disk. The runs are written through the real
// RunStore (no Docker, no model).
import { request } from 'node:http';
import { mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSources } from '../../src/api/run-sources.js';
import { writeBundle } from '../../src/monitor/bundle.js';
import { cookieName } from '../../src/monitor/guard.js';
import { startMonitorServer, type MonitorServer } from '../../src/monitor/server.js';
import { sealState, unsealedBody } from '../../src/state/state-mac.js';
import type { RunState } from '../../src/state/run-state.js';
import { RunStore } from '../../src/state/store.js';
import {
  addSampleIteration,
  HOSTILE_FILE,
  startSampleRun,
  writeSampleRun,
  type SampleRunOptions,
} from '../helpers/monitor-runs.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../helpers/state-key.js';
import { launchBrowser } from './chromium.js';

const STABLE = '20261122T140501Z-aaaaaa';
const HOSTILE = '20261123T140501Z-bbbbbb';
const LIVE: SampleRunOptions = {
  runId: '20261124T140501Z-cccccc',
  start: new Date('2026-11-24T14:05:01Z'),
  iterations: 1,
};
const FORGED = '20261125T140501Z-dddddd';
const TOKEN = 'monitor-test-token-0123456789abcdefghij';

let repo: string;
let store: RunStore;
let live: RunState;
let server: MonitorServer;
let browser: { context: BrowserContext; close: () => Promise<void> };
let base: string;
/** Every URL a page asked for, to prove the canary never called home. */
const requested: string[] = [];

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'hb-monitor-'));
  store = new RunStore({ dir: join(repo, '.hammer'), key: TEST_STATE_KEY });
  await writeSampleRun(store, { runId: STABLE, iterations: 2, end: { status: 'stable', reason: 'tests_pass' } });
  await writeSampleRun(store, {
    runId: HOSTILE,
    start: new Date('2026-11-23T14:05:01Z'),
    iterations: 2,
    hostile: true,
    end: { status: 'failed', reason: 'max_iterations' },
  });
  live = await startSampleRun(store, LIVE);
  live = await addSampleIteration(store, live, LIVE);
  // a state file the repository could carry: the stable run's, re-sealed under another key
  const text = await readFile(store.statePath(STABLE), 'utf8');
  await writeFile(
    store.statePath(FORGED),
    sealState(unsealedBody(text).replaceAll(STABLE, FORGED), Buffer.from('someone else'.padEnd(40, '!'))),
  );
  const sources = await RunSources.open({ repo, env: TEST_KEY_ENV });
  server = await startMonitorServer({ sources, port: 0, token: TOKEN });
  base = `http://127.0.0.1:${server.port}`;
  browser = await launchBrowser();
  browser.context.on('request', (r) => requested.push(r.url()));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (repo) await rm(repo, { recursive: true, force: true });
});

/** A page signed in: the URL with the token once (the server sets its cookie and drops the token). */
async function signedIn(): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(server.url);
  return page;
}

/** A raw HTTP GET (or another method) with the headers given, as a browser would not send them. */
function raw(
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const host = (): string => `127.0.0.1:${server.port}`;
const cookie = (): string => `${cookieName(server.port)}=${TOKEN}`;

describe('the runs list', () => {
  it('renders every trusted run newest first, filters by status, and keeps a forged state apart', async () => {
    const page = await signedIn();
    expect(new URL(page.url()).search).toBe(''); // the token left the address bar
    const ids = await page.locator('table.runs a.run-link').allTextContents();
    expect(ids).toEqual([LIVE.runId, HOSTILE, STABLE]);
    const row = page.locator(`tr[id="run-0-${STABLE}"]`);
    await expect
      .poll(() => row.locator('td').allTextContents())
      .toEqual(
        expect.arrayContaining(['stable', 'tests pass', '2', 'EngineerExternal/20261122T140501Z', 'qwen3-coder:30b']),
      );
    // the model URL's password is never shown
    expect(await page.content()).not.toContain('secret');
    await page.click('nav.filter a.f-failed');
    expect(await page.locator('table.runs a.run-link').allTextContents()).toEqual([HOSTILE]);
    const untrusted = page.locator('#untrusted');
    expect(await untrusted.textContent()).toContain(FORGED);
    expect(await untrusted.locator('.seal-bad').first().textContent()).toContain('NOT TRUSTED');
    await page.close();
  });
});

describe('a run page', () => {
  it('shows its diff, its failing test first and the full log one click away, and says its seal verified', async () => {
    const page = await signedIn();
    await page.goto(`${base}/run/0/${STABLE}/`);
    expect(await page.locator('.run-status .seal-ok').textContent()).toBe('seal verified');
    const iter = page.locator('#iter-1');
    expect(await iter.locator('.d2h-file-name').first().textContent()).toBe('calc.py');
    expect(await iter.locator('.d2h-ins .d2h-code-line-ctn').first().textContent()).toContain('return a + b');
    expect(await iter.locator('.d2h-del .d2h-code-line-ctn').first().textContent()).toContain('return a - b');
    const test = iter.locator('.test');
    expect(await test.locator('ol.failing li').first().textContent()).toContain('tests/test_calc.py::test_add');
    // failing tests come before the output excerpt
    const order = await test.evaluate((el) => {
      const kids = Array.from((el as unknown as { children: ArrayLike<{ className: string }> }).children);
      return kids.map((k) => k.className);
    });
    expect(order.indexOf('failing')).toBeLessThan(order.indexOf('output'));
    await test.locator('a.log-link').click();
    expect(await page.locator('pre.artifact').textContent()).toContain('FAILED tests/test_calc.py::test_add');
    // PR_SUMMARY.md is rendered: its table is a table, its <details> a details element
    await page.goto(`${base}/run/0/${STABLE}/`);
    const summary = page.locator('#run-summary article.markdown');
    expect(await summary.locator('table').count()).toBe(1);
    expect(await summary.locator('details > summary').textContent()).toBe('Final test output');
    await page.close();
  });

  it('marks a state whose seal does not verify as not trusted', async () => {
    const page = await signedIn();
    await page.goto(`${base}/run/0/${FORGED}/`);
    expect(await page.locator('.untrusted-banner').textContent()).toContain('not trusted');
    expect(await page.locator('.run-status .seal-bad').textContent()).toContain('seal does not match');
    await page.close();
  });
});

describe('live', () => {
  it("updates a running run's page and the list when an iteration lands, without reloading", async () => {
    const page = await signedIn();
    const list = await signedIn();
    await page.goto(`${base}/run/0/${LIVE.runId}/`);
    await expect.poll(() => page.locator('#livestate').textContent()).toBe('live');
    await expect.poll(() => list.locator('#livestate').textContent()).toBe('live');
    expect(await page.locator('#iter-2').count()).toBe(0);
    await page.evaluate('window.__stayed = true');
    await page.locator('#iter-1 details.answer summary').click();
    await page.evaluate("document.getElementById('iter-1').__mark = 1");
    live = await addSampleIteration(store, live, LIVE, true);
    await page.locator('#iter-2').waitFor();
    expect(await page.locator('#iter-2 .test .badge').first().textContent()).toBe('passed');
    expect(await page.evaluate('window.__stayed')).toBe(true); // the same document: no reload
    // the iteration that did not change is the same element still, its answer still open
    expect(await page.evaluate("document.getElementById('iter-1').__mark")).toBe(1);
    expect(await page.locator('#iter-1 details.answer').getAttribute('open')).toBe('');
    await expect.poll(() => list.locator(`tr[id="run-0-${LIVE.runId}"] td.num`).first().textContent()).toBe('2');
    await page.close();
    await list.close();
  });
});

describe('hostile text', () => {
  it('renders file names, answers and test output as text, and the canary never runs', async () => {
    const page = await signedIn();
    await page.goto(`${base}/run/0/${HOSTILE}/`);
    await page.locator('#iter-2 details.answer summary').click();
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain(HOSTILE_FILE);
    expect(text).toContain("<script>window.__canary = 1; fetch('/canary')</script>");
    expect(await page.locator('.d2h-file-name').first().textContent()).toBe(HOSTILE_FILE);
    // nothing of it became an element: no image, no script beyond the page's own, no javascript: link
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    await page.locator('#iter-1 .log-link').click();
    await page.locator('pre.artifact').waitFor();
    expect(await page.evaluate('window.__canary')).toBeUndefined();
    expect(requested.filter((u) => u.includes('canary'))).toEqual([]);
    await page.close();
  });

  it('carries a policy that stops any inline script, even one added to the page', async () => {
    const page = await signedIn();
    await page.goto(`${base}/run/0/${HOSTILE}/`);
    await page.evaluate(`{
      const s = document.createElement('script');
      s.textContent = 'window.__inline = 1';
      document.body.append(s);
    }`);
    expect(await page.evaluate('window.__inline')).toBeUndefined();
    await page.close();
  });
});

describe('who the server answers', () => {
  it('requires the token: none, a wrong one, or a wrong cookie get 401', async () => {
    expect((await raw('/', { Host: host() })).status).toBe(401);
    expect((await raw(`/run/0/${STABLE}/`, { Host: host() })).status).toBe(401);
    expect((await raw('/events', { Host: host() })).status).toBe(401);
    expect((await raw('/assets/monitor.css', { Host: host() })).status).toBe(401);
    expect((await raw('/?token=wrong', { Host: host() })).status).toBe(401);
    expect((await raw('/', { Host: host(), Cookie: `${cookieName(server.port)}=wrong` })).status).toBe(401);
    // a browser without the cookie sees the refusal too
    const page = await browser.context.newPage();
    await browser.context.clearCookies();
    const res = await page.goto(`${base}/`);
    expect(res?.status()).toBe(401);
    await page.close();
    const ok = await raw(`/?token=${TOKEN}`, { Host: host() });
    expect(ok.status).toBe(303);
    expect(ok.headers['location']).toBe('/');
    expect(String(ok.headers['set-cookie'])).toContain('HttpOnly; SameSite=Strict');
    expect((await raw('/', { Host: host(), Cookie: cookie() })).status).toBe(200);
  });

  it('refuses a foreign Host header (DNS rebinding), and answers only GET', async () => {
    for (const h of [
      `evil.example:${server.port}`,
      `localhost.evil.example:${server.port}`,
      '127.0.0.1',
      `127.0.0.1:1`,
    ]) {
      const res = await raw('/', { Host: h, Cookie: cookie() });
      expect(res.status, h).toBe(403);
    }
    expect((await raw('/', { Host: `localhost:${server.port}`, Cookie: cookie() })).status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD']) {
      const res = await raw('/', { Host: host(), Cookie: cookie() }, method);
      expect(res.status, method).toBe(405);
    }
  });

  it('serves no file outside the run directories, nor one its state does not name', async () => {
    const get = async (path: string): Promise<number> => (await raw(path, { Host: host(), Cookie: cookie() })).status;
    expect(await get(`/run/0/${STABLE}/file/iter-01-test.log`)).toBe(200);
    // a file in the run's directory that its state does not name is not served
    await writeFile(join(store.artifactsDir(STABLE), 'notes.md'), 'not named by the state\n');
    expect(await get(`/run/0/${STABLE}/file/notes.md`)).toBe(404);
    for (const path of [
      `/run/0/${STABLE}/file/..%2F..%2F..%2Fpackage.json`,
      `/run/0/${STABLE}/file/..%2F${STABLE}.json`,
      `/run/0/${STABLE}/file/iter-09.patch`,
      `/run/0/${STABLE}/file/%2Fetc%2Fpasswd`,
      `/run/0/..%2F..%2F/file/state.key`,
      `/run/1/${STABLE}/`,
      '/assets/..%2F..%2Fpackage.json',
      '/assets/live.js%00',
      '/etc/passwd',
    ])
      expect(await get(path), path).toBe(404);
    // an artifacts directory swapped for a symlink is not read through
    const dir = store.artifactsDir(STABLE);
    const elsewhere = await mkdtemp(join(tmpdir(), 'hb-monitor-elsewhere-'));
    await writeFile(join(elsewhere, 'iter-02-test.log'), 'a file outside the runs\n');
    await rename(dir, `${dir}.aside`);
    await symlink(elsewhere, dir);
    const res = await raw(`/run/0/${STABLE}/file/iter-02-test.log`, { Host: host(), Cookie: cookie() });
    expect(res.body).not.toContain('outside the runs');
    expect(res.status).toBe(404);
    await rm(dir);
    await rename(`${dir}.aside`, dir);
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('sends the policy headers with every answer', async () => {
    const res = await raw('/', { Host: host(), Cookie: cookie() });
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('the bundle', () => {
  it('opens from disk with no server: the list, a run with its diff, hostile text inert', async () => {
    const sources = await RunSources.open({ repo, env: TEST_KEY_ENV });
    const out = join(repo, 'bundle');
    const report = await writeBundle({ sources, out });
    const page = await browser.context.newPage();
    await page.goto(`file://${report.index}`);
    expect(await page.locator('table.runs a.run-link').allTextContents()).toEqual([LIVE.runId, HOSTILE, STABLE]);
    // the style sheets load under the bundle's policy
    const bg = await page.evaluate("getComputedStyle(document.querySelector('.badge')).backgroundColor");
    expect(bg).not.toBe('rgba(0, 0, 0, 0)');
    await page.click('nav.filter a.f-stable');
    await page.click(`a.run-link:text("${STABLE}")`);
    expect(await page.locator('#iter-1 .d2h-ins .d2h-code-line-ctn').first().textContent()).toContain('return a + b');
    await page.goto(`file://${join(out, 'runs', `0-${HOSTILE}`, 'index.html')}`);
    expect((await page.locator('main').textContent()) ?? '').toContain(HOSTILE_FILE);
    expect(await page.locator('script').count()).toBe(0);
    await page.locator('#iter-1 .log-link').click();
    expect(await page.locator('pre.artifact').textContent()).toContain('<script>window.__canary');
    expect(await page.evaluate('window.__canary')).toBeUndefined();
    // its policy stops any script, even one added to the page
    await page.evaluate(`{
      const s = document.createElement('script');
      s.textContent = 'window.__inline = 1';
      document.body.append(s);
    }`);
    expect(await page.evaluate('window.__inline')).toBeUndefined();
    await page.close();
  });
});
