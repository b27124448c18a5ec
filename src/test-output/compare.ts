// Failing tests across runs: one identity per test, and the tests a run fixed.
import type { TestFailure, TestRunner } from './types.js';

/** A failing test without its place in one particular output (what a run's state keeps). */
export type FailingTest = Omit<TestFailure, 'block'>;

/** What one test run said about its tests. */
export interface TestRunSummary {
  runners: readonly TestRunner[];
  failing: readonly FailingTest[];
}

/** The identity of a failing test across runs: runner, scope, package and id. */
export function testKey(t: Pick<FailingTest, 'runner' | 'scope' | 'package' | 'id'>): string {
  return [t.runner, t.scope, t.package ?? '', t.id].join('\u0000');
}

/** Each failing test once (subtests and repeated blocks of one test share an id), without output positions. */
export function distinctFailingTests(failures: readonly FailingTest[]): FailingTest[] {
  const seen = new Set<string>();
  const out: FailingTest[] = [];
  for (const f of failures) {
    const key = testKey(f);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      runner: f.runner,
      scope: f.scope,
      id: f.id,
      name: f.name,
      package: f.package,
      file: f.file,
      line: f.line,
      ...(f.kind === undefined ? {} : { kind: f.kind }),
    });
  }
  return out;
}

/**
 * The tests that failed at baseline and pass now. When the latest run passed, every baseline failure;
 * otherwise those of a runner the latest output was recognised for that it no longer names as failing
 * (a test of a runner whose output was not recognised this time is not counted as fixed).
 */
export function fixedTests(baseline: TestRunSummary, latest: TestRunSummary & { passed: boolean }): FailingTest[] {
  const before = distinctFailingTests(baseline.failing);
  if (latest.passed) return before;
  const still = new Set(latest.failing.map(testKey));
  return before.filter((t) => latest.runners.includes(t.runner) && !still.has(testKey(t)));
}
