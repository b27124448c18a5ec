// Flaky baseline failures: tests that failed at baseline and passed when the failures were run again
// at once, on the same tree. They are said, and never a target of the run. Pure.
import type { TestRecord } from '../state/run-state.js';
import {
  distinctFailingTests,
  testKey,
  type FailingTest,
  type TestCounts,
  type TestRunner,
} from '../test-output/index.js';
import { readTest } from './test-reading.js';

/**
 * The baseline's failing tests that passed on the rerun. Claimed only where the rerun proves it: its
 * output was read (it passed or failed, neither timed out nor unread), it names every failure its
 * runner's summary counts, and, per runner, the tests it counts as passed cover the ones that passed
 * before plus every test called flaky (so a test the rerun did not run, because a filter missed it
 * or the runner stopped at the first failure, is never taken for one that passed). A runner that
 * prints no counts proves nothing.
 */
export function flakyFailures(baseline: TestRecord | null, rerun: TestRecord | null | undefined): FailingTest[] {
  if (baseline?.parsed === undefined || rerun?.parsed === undefined || rerun === null) return [];
  const reading = readTest(rerun);
  if (reading !== 'passed' && reading !== 'failed') return [];
  const after = rerun.parsed;
  const nowKeys = new Set(after.failing.map(testKey));
  for (const c of after.counts)
    if ((c.failed ?? 0) > after.failing.filter((t) => t.runner === c.runner).length) return [];
  const candidates = distinctFailingTests(baseline.parsed.failing).filter(
    (t) => after.runners.includes(t.runner) && !nowKeys.has(testKey(t)),
  );
  const focused = rerun.scope === 'focused';
  const out: FailingTest[] = [];
  for (const runner of new Set(candidates.map((t) => t.runner))) {
    const mine = candidates.filter((t) => t.runner === runner);
    const passedNow = passedCount(after.counts, runner);
    const passedBefore = focused ? 0 : passedCount(baseline.parsed.counts, runner);
    if (passedNow === null || passedBefore === null || passedNow < passedBefore + mine.length) continue;
    out.push(...mine);
  }
  return out;
}

/** The tests a runner's summaries count as passed, or null when it printed no such count. */
function passedCount(counts: readonly TestCounts[], runner: TestRunner): number | null {
  const mine = counts.filter((c) => c.runner === runner && c.passed !== null);
  return mine.length === 0 ? null : mine.reduce((n, c) => n + (c.passed ?? 0), 0);
}
