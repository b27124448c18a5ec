// Cut a test output once, for the prompt and the state: the head, the tail, every failure's block (up
// to a cap each) and the runner's summaries stay; each run of lines left out becomes one marker that
// says how many lines it stands for.
import type { LineRange, TestOutputReport } from './types.js';

/** How much of an output a cut keeps. */
export interface CutLimits {
  /** Lines kept from the start and from the end of the output. */
  headLines: number;
  tailLines: number;
  /** Lines kept of each failure's block, and of all the summaries together. */
  failureLines: number;
  /** Failure blocks kept (the first ones); the others are cut with the rest. */
  maxFailures: number;
}

/** The marker that stands for `n` consecutive lines left out. */
export function omittedMarker(n: number): string {
  return `[... ${n} ${n === 1 ? 'line' : 'lines'} omitted ...]`;
}

/**
 * The output with only the lines that matter: `report` must be parseTestOutput(text). Every line kept is
 * unchanged; every run of two or more lines left out becomes omittedMarker(n) with its true count.
 */
export function cutTestOutput(text: string, report: TestOutputReport, limits: CutLimits): string {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const n = lines.length;
  const keep = new Uint8Array(n);
  const mark = (first: number, last: number): void => {
    for (let i = Math.max(0, first); i <= Math.min(n - 1, last); i++) keep[i] = 1;
  };
  mark(0, limits.headLines - 1);
  mark(n - limits.tailLines, n - 1);
  const seen = new Set<string>();
  let blocks = 0;
  for (const f of report.failures) {
    if (f.block === null || blocks >= limits.maxFailures) continue;
    const key = `${f.block.start}:${f.block.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    blocks++;
    markRange(mark, f.block, limits.failureLines);
  }
  let summaryRoom = limits.failureLines;
  for (const s of report.summaries) {
    if (summaryRoom <= 0) break;
    const size = s.end - s.start + 1;
    markRange(mark, s, summaryRoom);
    summaryRoom -= size;
  }
  const out: string[] = [];
  for (let i = 0; i < n;) {
    if (keep[i] === 1) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < n && keep[j] === 0) j++;
    // one line costs no more than its marker: show it
    if (j - i === 1) out.push(lines[i]!);
    else out.push(omittedMarker(j - i));
    i = j;
  }
  return out.join('\n');
}

function markRange(mark: (first: number, last: number) => void, r: LineRange, max: number): void {
  if (max <= 0) return;
  mark(r.start - 1, Math.min(r.end, r.start + max - 1) - 1);
}
