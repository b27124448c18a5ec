// `hammer-box monitor` as people use it: the built binary (`node dist/cli/main.js`) prints its URL,
// the browser opens it, Ctrl-C stops it; `--bundle` writes pages a browser opens from disk.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/state/store.js';
import { writeSampleRun } from '../helpers/monitor-runs.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../helpers/state-key.js';
import { launchBrowser } from './chromium.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const RUN = '20261122T140501Z-aaaaaa';

let repo: string;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

function start(args: string[]): ChildProcess {
  return spawn(process.execPath, [MAIN, ...args], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...TEST_KEY_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function finish(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  if (!existsSync(MAIN))
    throw new Error(`${MAIN} is missing: this test runs the built binary. Build it first with 'make build'.`);
  repo = await mkdtemp(join(tmpdir(), 'hb-monitor-cli-'));
  const store = new RunStore({ dir: join(repo, '.hammer'), key: TEST_STATE_KEY });
  await writeSampleRun(store, { runId: RUN, iterations: 1, end: { status: 'stable', reason: 'tests_pass' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (repo) await rm(repo, { recursive: true, force: true });
});

describe('hammer-box monitor', () => {
  it('prints a URL with its token on 127.0.0.1, serves the runs there, and stops on Ctrl-C with exit 0', async () => {
    const child = start(['monitor', '--repo', repo, '--run', RUN]);
    const done = finish(child);
    const url = await new Promise<string>((resolve) => {
      let seen = '';
      child.stdout!.on('data', (s: string) => {
        seen += s;
        if (seen.includes('\n')) resolve(seen.split('\n')[0]!);
      });
    });
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/run/0/${RUN}/\\?token=[A-Za-z0-9_-]{43}$`));
    const page = await browser.context.newPage();
    await page.goto(url);
    expect(await page.locator('.run-status .badge').first().textContent()).toBe('stable');
    await page.locator('header a.brand').click();
    expect(await page.locator('table.runs a.run-link').allTextContents()).toEqual([RUN]);
    await page.close();
    child.kill('SIGINT');
    const { code, stderr } = await done;
    expect(code).toBe(0);
    expect(stderr).toContain('Ctrl-C stops');
  });

  it('says RUN_NOT_FOUND (exit 2) for --run naming no run', async () => {
    const { code, stderr } = await finish(start(['monitor', '--repo', repo, '--run', '20261122T140509Z-zzzzzz']));
    expect(code).toBe(2);
    expect(stderr).toContain('RUN_NOT_FOUND');
  });

  it('writes a bundle with --bundle, prints its index.html, and a browser opens it from disk', async () => {
    const out = join(repo, 'pages');
    const { code, stdout } = await finish(start(['monitor', '--repo', repo, '--bundle', out]));
    expect(code).toBe(0);
    expect(stdout).toBe(`${join(out, 'index.html')}\n`);
    const page = await browser.context.newPage();
    await page.goto(`file://${join(out, 'index.html')}`);
    await page.locator('a.run-link').click();
    expect(await page.locator('#iter-1 .d2h-file-name').first().textContent()).toBe('calc.py');
    await page.close();
  });
});
