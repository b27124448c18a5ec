// Line helpers shared by the runner parsers: output text to clean lines, and 1-based ranges.
import type { LineRange, TestCounts, TestFailure, TestRunner } from './types.js';

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** At most this many failures are read from one output (hostile output can print millions). */
export const MAX_FAILURES = 500;
/** Longest id or name kept. */
export const MAX_NAME = 500;

/** Lines are read up to this length (no runner prints a longer line it means; a hostile one could). */
export const MAX_LINE = 2_000;

/** The output's lines without colour codes or carriage returns, each cut at MAX_LINE (the same count and order as the text's). */
export function outputLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) =>
    l
      .slice(0, MAX_LINE * 2)
      .replace(ANSI, '')
      .replace(/\r$/, '')
      .slice(0, MAX_LINE),
  );
}

/** The count of leading spaces (a tab counts as one). */
export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** A 1-based range from 0-based first and last indices. */
export function range(first: number, last: number): LineRange {
  return { start: first + 1, end: Math.max(first, last) + 1 };
}

/** The index of the last line before `end` that is not blank, but not before `first`. */
export function trimBlankEnd(lines: readonly string[], first: number, end: number): number {
  let last = end;
  while (last > first && (lines[last] ?? '').trim() === '') last--;
  return last;
}

/** Cap a name's length. */
export function capName(name: string): string {
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name;
}

/** What one runner's parser read from an output. */
export interface RunnerParse {
  runner: TestRunner;
  failures: TestFailure[];
  counts: TestCounts | null;
  summaries: LineRange[];
  /** The 0-based line where this runner's output was first recognised (orders the runners). */
  firstLine: number;
}

/** A runner's parser: null when the output holds nothing of that runner. */
export type RunnerParser = (lines: readonly string[]) => RunnerParse | null;

/** A number from a regex group, or null. */
export function num(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) ? n : null;
}
