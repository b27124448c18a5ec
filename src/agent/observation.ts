// What a tool's result looks like to the model: output cut to a head and a tail with one line saying
// how much was left out, and a shell command's exit code or timeout.
import { omittedLines } from '../text/omitted-lines.js';
import { sanitizeText } from '../text/sanitize.js';

/** How much of one output the model is shown. */
export interface ObservationLimits {
  maxLines: number;
  maxChars: number;
}

/** Cut text to a head and a tail, with one line `(N lines of output omitted)` between; never splits a UTF-8 char. */
export function cutObservation(text: string, limits: ObservationLimits): string {
  const maxLines = Math.max(2, Math.floor(limits.maxLines));
  const maxChars = Math.max(2, Math.floor(limits.maxChars));
  const finalNewline = text.endsWith('\n');
  const body = finalNewline ? text.slice(0, -1) : text;
  const lines = body.split('\n');
  if (lines.length <= maxLines && body.length <= maxChars) return text;
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i]!.length + 1, i++) starts.push(at);
  const headLines = Math.ceil(maxLines / 2);
  const headChars = Math.ceil(maxChars / 2);
  const tailLines = maxLines - headLines;
  const tailChars = maxChars - headChars;
  // the head: whole lines while both budgets last, else part of the first line
  let k = 0;
  while (k < headLines && k < lines.length && starts[k]! + lines[k]!.length + 1 <= headChars) k++;
  const a = k > 0 ? starts[k]! : safeCut(body, Math.min(headChars, lines[0]!.length), 'head');
  // the tail: whole lines from the end (after the head), else the end of the last line
  let j = lines.length;
  while (lines.length - j < tailLines && j - 1 >= k && body.length - starts[j - 1]! <= tailChars) j--;
  const b = j < lines.length ? starts[j]! : Math.max(a, safeCut(body, body.length - tailChars, 'tail'));
  if (a >= b) return text;
  const middle = body.slice(a, b);
  const newlines = middle.split('\n').length - 1;
  const omitted =
    newlines === 0
      ? `(${middle.length} ${middle.length === 1 ? 'character' : 'characters'} of output omitted)`
      : omittedLines(newlines + (middle.endsWith('\n') ? 0 : 1));
  const head = body.slice(0, a);
  return `${head}${head === '' || head.endsWith('\n') ? '' : '\n'}${omitted}\n${body.slice(b)}${finalNewline ? '\n' : ''}`;
}

/** A shell command's result as run. */
export interface BashResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  timeoutMs: number;
  /** The bound was what was left of the trajectory's wall time (agent.max_seconds), not the command's own. */
  byDeadline?: boolean;
}

/**
 * A bash result as the model sees it: stdout, then stderr under a `[stderr]` line (each cut; they
 * share the limits when both have text), then `[exit code N]` or the timeout. Escape sequences and
 * control characters are taken out.
 */
export function bashObservation(r: BashResult, limits: ObservationLimits): string {
  const out = sanitizeText(r.stdout).replace(/\n+$/, '');
  const err = sanitizeText(r.stderr).replace(/\n+$/, '');
  const share = out !== '' && err !== '' ? 2 : 1;
  const each = { maxLines: limits.maxLines / share, maxChars: limits.maxChars / share };
  const parts: string[] = [];
  if (out !== '') parts.push(cutObservation(out, each));
  if (err !== '') parts.push(`[stderr]\n${cutObservation(err, each)}`);
  if (parts.length === 0) parts.push('(no output)');
  parts.push(
    !r.timedOut
      ? `[exit code ${r.exitCode}]`
      : r.byDeadline === true
        ? `[the command was killed after ${duration(r.timeoutMs)}: the time for this attempt (agent.max_seconds) ran out]`
        : `[the command timed out after ${duration(r.timeoutMs)} and was killed: narrow it down, or run it with a time limit of its own]`,
  );
  return parts.join('\n');
}

// A cut index moved off the middle of a surrogate pair: back for the end of a head, on for the start of a tail.
function safeCut(s: string, at: number, part: 'head' | 'tail'): number {
  const code = s.charCodeAt(at);
  const splitsPair = at > 0 && at < s.length && code >= 0xdc00 && code <= 0xdfff;
  if (!splitsPair) return at;
  return part === 'head' ? at - 1 : at + 1;
}

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)}s`;
}
