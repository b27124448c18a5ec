#!/usr/bin/env bash
# The screenshots in docs/running.md of `hammer-box monitor` (docs/img/monitor-*.png), from real runs: the demo
# (examples/wordcount, recorded answers, Docker), a run of it stopped after one iteration, and a
# replay; then the monitor on that repository in headless Chromium (scripts/chromium.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/chromium.sh >/dev/null
main="$root/dist/cli/main.js"
[[ -f "$main" ]] || { echo "monitor-screenshots: run 'make build' first" >&2; exit 2; }

out="$(bash examples/demo.sh 2>/dev/null)" || { echo "monitor-screenshots: the demo failed" >&2; exit 1; }
repo="$(sed -n 's/^repository: *//p' <<<"$out")"
run_id="$(basename "$(sed -n 's/^state: *//p' <<<"$out")" .json)"
config="$(dirname "$repo")/demo.toml"
node "$main" run --repo "$repo" --directive examples/wordcount/DIRECTIVE.md --provider replay \
  --config "$config" --max-iterations 1 -q >/dev/null || true
node "$main" replay "$run_id" --repo "$repo" -q >/dev/null

mkdir -p docs/img
node --input-type=module - "$main" "$repo" "$run_id" docs/img <<'JS'
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [main, repo, runId, dir] = process.argv.slice(2);
const monitor = spawn(process.execPath, [main, 'monitor', '--repo', repo], { stdio: ['ignore', 'pipe', 'ignore'] });
const url = await new Promise((resolve) => monitor.stdout.once('data', (d) => resolve(String(d).trim())));
const profile = mkdtempSync(join(tmpdir(), 'hb-shots-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.HAMMER_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1280, height: 800 },
  deviceScaleFactor: 1,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage();
  await page.goto(url);
  await page.locator('#livestate').filter({ hasText: 'live' }).waitFor();
  await page.screenshot({ path: join(dir, 'monitor-list.png'), clip: { x: 0, y: 0, width: 1280, height: 330 } });
  await page.goto(new URL(`/run/0/${runId}/`, page.url()).href);
  await page.locator('#livestate').filter({ hasText: 'live' }).waitFor();
  await page.screenshot({ path: join(dir, 'monitor-run.png') });
  await page.locator('#iter-1').screenshot({ path: join(dir, 'monitor-iteration.png') });
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  monitor.kill('SIGINT');
}
JS
echo "monitor-screenshots: wrote docs/img/monitor-list.png, monitor-run.png, monitor-iteration.png (runs in $repo)"
