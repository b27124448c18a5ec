// Turn a test command's result from the sandbox into the state's small, safe test record.
import { sanitizeText } from '../text/sanitize.js';
import type { ExecResult } from '../sandbox/types.js';
import type { ParsedTestOutput, TestRecord } from '../state/run-state.js';
import {
  cutTestOutput,
  distinctFailingTests,
  MAX_FAILURES,
  parseTestOutput,
  saysNoTests,
  type CutLimits,
  type TestOutputReport,
} from '../test-output/index.js';

export interface TestRecordOptions extends CutLimits {
  command: string;
  /** The test log's artifact name, or null when none was written. */
  artifact: string | null;
  /** Longest line kept; longer lines are cut with a marker (default 500). */
  maxLineChars?: number;
}

/**
 * A TestRecord from an ExecResult: each stream sanitised and cut once (head, tail, every failing test's
 * block up to a cap, the runner's summaries), what the output says about its tests (or that nothing
 * in it could be read: `unread`), byte counts, exit code.
 */
export function toTestRecord(result: ExecResult, options: TestRecordOptions): TestRecord {
  const max = options.maxLineChars ?? 500;
  const texts = [sanitizeText(result.stdout.text), sanitizeText(result.stderr.text)];
  const streams = texts.map((text) => {
    const report = parseTestOutput(text);
    const excerpt = cutTestOutput(text, report, options)
      .split('\n')
      .map((l) => (l.length > max ? `${l.slice(0, max)}[... ${l.length - max} more characters]` : l))
      .join('\n');
    return { report, excerpt };
  });
  const parsed = summarise(
    streams.map((s) => s.report),
    texts.join('\n'),
  );
  return {
    command: options.command,
    exit_code: result.exitCode,
    duration_ms: Math.max(0, result.durationMs),
    timed_out: result.timedOut,
    stdout_tail: streams[0]!.excerpt,
    stderr_tail: streams[1]!.excerpt,
    parsed,
    // nothing read: the exit code alone is all there is, and it never makes a pass
    ...(parsed.runners.length === 0 && parsed.no_tests !== true ? { unread: true as const } : {}),
    total_bytes: result.stdout.totalBytes + result.stderr.totalBytes,
    dropped_bytes: result.stdout.droppedBytes + result.stderr.droppedBytes,
    artifact: options.artifact,
  };
}

/** The runners, failing tests (each once) and counts of both streams' reports, and whether the output says no test ran. */
function summarise(reports: readonly TestOutputReport[], text: string): ParsedTestOutput {
  const failures = reports.flatMap((r) => r.failures);
  const counts = reports.flatMap((r) => r.counts);
  return {
    runners: [...new Set(reports.flatMap((r) => r.runners))],
    failing: distinctFailingTests(failures).slice(0, MAX_FAILURES),
    counts,
    ...(saysNoTests(text, { failures, counts }) ? { no_tests: true as const } : {}),
  };
}
