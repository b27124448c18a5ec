// The test log artifact: what a test run printed, sanitised, with its command and result.
import { sanitizeText } from '../text/sanitize.js';

/** What a test run printed (one captured stream, as the sandbox keeps it: head and tail of what it wrote). */
interface CapturedStream {
  text: string;
  totalBytes: number;
  droppedBytes: number;
}

/** A finished test command as the sandbox reports it (its ExecResult). */
export interface LoggedRun {
  exitCode: number;
  stdout: CapturedStream;
  stderr: CapturedStream;
  durationMs: number;
  timedOut: boolean;
}

/** A test run's log file content (safe to cat: no escape sequences). */
export function renderTestLog(command: string, result: LoggedRun): string {
  const status = result.timedOut
    ? `timed out after ${result.durationMs} ms`
    : `exit ${result.exitCode} after ${result.durationMs} ms`;
  const stream = (name: string, s: CapturedStream): string => {
    const dropped =
      s.droppedBytes > 0
        ? ` (${s.totalBytes} bytes, ${s.droppedBytes} dropped from the middle)`
        : ` (${s.totalBytes} bytes)`;
    return `----- ${name}${dropped} -----\n${sanitizeText(s.text).replace(/\n?$/, '\n')}`;
  };
  return `$ ${sanitizeText(command).replace(/\n/g, ' ')}\n# ${status}\n${stream('stdout', result.stdout)}${stream('stderr', result.stderr)}`;
}
