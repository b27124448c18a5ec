// Turn a test command's result from the sandbox into the state's small, safe test record.
import { sanitizeText } from '../report/sanitize.js';
import type { ExecResult } from '../sandbox/types.js';
import type { TestRecord } from '../state/run-state.js';
import { headTailLines } from './prompt.js';

export interface TestRecordOptions {
  command: string;
  /** The test log's artifact name, or null when none was written. */
  artifact: string | null;
  /** Lines kept from the start and end of each stream (config prompt.output_head_lines / output_tail_lines). */
  headLines: number;
  tailLines: number;
  /** Longest line kept; longer lines are cut with a marker (default 500). */
  maxLineChars?: number;
}

/** A TestRecord from an ExecResult: sanitised head and tail lines of each stream, byte counts, exit code. */
export function toTestRecord(result: ExecResult, options: TestRecordOptions): TestRecord {
  const excerpt = (text: string): string => {
    const max = options.maxLineChars ?? 500;
    const lines = headTailLines(sanitizeText(text), options.headLines, options.tailLines).split('\n');
    return lines
      .map((l) => (l.length > max ? `${l.slice(0, max)}[... ${l.length - max} more characters]` : l))
      .join('\n');
  };
  return {
    command: options.command,
    exit_code: result.exitCode,
    duration_ms: Math.max(0, result.durationMs),
    timed_out: result.timedOut,
    stdout_tail: excerpt(result.stdout.text),
    stderr_tail: excerpt(result.stderr.text),
    total_bytes: result.stdout.totalBytes + result.stderr.totalBytes,
    dropped_bytes: result.stdout.droppedBytes + result.stderr.droppedBytes,
    artifact: options.artifact,
  };
}
