// The syntax gate: a candidate that leaves a touched file with a syntax error the file did not have
// (tree-sitter: Python, JavaScript, TypeScript, Go, Rust) is skipped for the next rung. Errors are
// compared by what they say, not where: an edit moves the lines of errors the file already had.
import { languageForPath, parseProblems, type SyntaxProblem } from '../syntax/index.js';

/** A touched file before and after a candidate (null: it does not exist on that side). */
export interface GateFile {
  path: string;
  before: string | null;
  after: string | null;
}

/** The first syntax error a candidate adds, with the lines around it. */
export interface NewSyntaxError {
  path: string;
  line: number;
  column: number;
  message: string;
  /**
   * Lines of the file after the candidate (1-based `start`): around the error, or around the
   * changed lines when the parser placed the error outside them (`at: 'change'`).
   */
  region: { start: number; lines: string[]; at: 'error' | 'change' };
}

/** Parsed problems by language and text, kept across the candidates of one answer (null: the parser gave up). */
export type ProblemCache = Map<string, Promise<SyntaxProblem[] | null>>;

/** Lines shown before and after the error's line. */
const AROUND = 2;
/** Most lines shown around a change. */
const CHANGE_LINES = 8;

/** True when the gate can read the file (its language has a grammar). */
export function gateReads(path: string): boolean {
  return languageForPath(path) !== null;
}

/**
 * The first new syntax error a candidate leaves in `files` (in their order), or null. `cache`
 * keeps each text's problems across candidates; a text the parser gave up on is not judged.
 */
export async function firstNewSyntaxError(
  files: readonly GateFile[],
  cache: ProblemCache = new Map(),
): Promise<NewSyntaxError | null> {
  for (const f of files) {
    const language = languageForPath(f.path);
    if (language === null || f.after === null) continue;
    const problemsOf = (text: string): Promise<SyntaxProblem[] | null> => {
      const key = `${language}\u0000${text}`;
      let p = cache.get(key);
      if (p === undefined) {
        p = parseProblems(language, text).then((ps) => (ps.some((x) => x.kind === 'timeout') ? null : ps));
        cache.set(key, p);
      }
      return p;
    };
    const after = await problemsOf(f.after);
    if (after === null || after.length === 0) continue;
    const before = f.before === null ? [] : await problemsOf(f.before);
    if (before === null) continue;
    const fresh = added(before, after);
    if (fresh === null) continue;
    const lines = f.after.split('\n');
    const change = changedSpan(f.before ?? '', f.after);
    const near = fresh.line >= change.first - AROUND && fresh.line <= change.last + AROUND;
    // a parser may put an error's start far above the edit (a Python ERROR node from line 1):
    // then the changed lines are what the model needs to see
    const [from, to] = near
      ? [fresh.line - AROUND, fresh.line + AROUND]
      : [change.first - AROUND, Math.min(change.last, change.first + CHANGE_LINES) + AROUND];
    const start = Math.max(1, from);
    const end = Math.min(lines.length, to);
    return {
      path: f.path,
      line: fresh.line,
      column: fresh.column,
      message: fresh.message,
      region: {
        start,
        lines: lines.slice(start - 1, end).map((l) => l.replace(/\r$/, '')),
        at: near ? 'error' : 'change',
      },
    };
  }
  return null;
}

// The 1-based lines of `after` that differ from `before` (the lines around a deletion when none were added).
function changedSpan(before: string, after: string): { first: number; last: number } {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const first = head + 1;
  return { first, last: Math.max(first, b.length - tail) };
}

// The first problem of `after` that `before` does not have (as many times), by kind and message.
function added(before: readonly SyntaxProblem[], after: readonly SyntaxProblem[]): SyntaxProblem | null {
  const left = new Map<string, number>();
  for (const p of before) left.set(key(p), (left.get(key(p)) ?? 0) + 1);
  for (const p of after) {
    const n = left.get(key(p)) ?? 0;
    if (n === 0) return p;
    left.set(key(p), n - 1);
  }
  return null;
}

function key(p: SyntaxProblem): string {
  return `${p.kind}\u0000${p.message}`;
}
