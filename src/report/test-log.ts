// The test log artifact: what a test run printed, sanitised, with its command and result.
import type { ExecResult } from '../sandbox/types.js';
import { sanitizeText } from './sanitize.js';

/** A test run's log file content (safe to cat: no escape sequences). */
export function renderTestLog(command: string, result: ExecResult): string {
  const status = result.timedOut
    ? `timed out after ${result.durationMs} ms`
    : `exit ${result.exitCode} after ${result.durationMs} ms`;
  const stream = (name: string, s: ExecResult['stdout']): string => {
    const dropped =
      s.droppedBytes > 0
        ? ` (${s.totalBytes} bytes, ${s.droppedBytes} dropped from the middle)`
        : ` (${s.totalBytes} bytes)`;
    return `----- ${name}${dropped} -----\n${sanitizeText(s.text).replace(/\n?$/, '\n')}`;
  };
  return `$ ${sanitizeText(command).replace(/\n/g, ' ')}\n# ${status}\n${stream('stdout', result.stdout)}${stream('stderr', result.stderr)}`;
}
