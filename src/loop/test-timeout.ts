// How long a test run may take: the time follows the suite. The first baseline gets a generous
// limit ([tools] baseline_timeout: how long the suite takes is not known yet); every run after it
// gets test_timeout_factor times what the baseline took, or test_timeout when that is more. Pure.
import type { Config } from '../config/schema.js';
import type { TestRecord } from '../state/run-state.js';

/** The settings the limit comes from. */
export type TestTimeoutSettings = Pick<Config['tools'], 'test_timeout' | 'baseline_timeout' | 'test_timeout_factor'>;

/**
 * The limit of a test run, in milliseconds: `baseline` is the run's recorded baseline (null while
 * the baseline itself runs). A baseline that timed out gives later runs the time it had.
 */
export function testTimeoutMs(
  tools: TestTimeoutSettings,
  baseline: Pick<TestRecord, 'duration_ms' | 'timed_out'> | null,
): number {
  const floor = tools.test_timeout * 1000;
  if (baseline === null) return Math.max(floor, tools.baseline_timeout * 1000);
  const measured = baseline.timed_out
    ? baseline.duration_ms
    : Math.ceil(baseline.duration_ms * tools.test_timeout_factor);
  return Math.max(floor, measured);
}
