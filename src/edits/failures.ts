// Why an edit could not be placed in the current file content, as data; feedback.ts renders it.
import { closestRegion, missingLines, type Region } from './closest-region.js';
import { apartLines, skippedLines, type FileLine } from './stale-context.js';

/** What went wrong for one hunk or block. */
export type FailureDetail =
  /**
   * `skipped`: file lines that stand between its lines where they all are close together (its
   * context skips them); `apart`: its lines that the file has, but far from the region where the
   * others line up (set only when there are such lines).
   */
  | { kind: 'not_found'; missing: string[]; region: Region | null; skipped: FileLine[]; apart?: FileLine[] }
  /**
   * Its lines are in the file at 1-based `at` (`count` lines), but the line beside them, `beside`,
   * repeats its change (a line it replaces, or one its added lines already hold): the file changed around it.
   */
  | { kind: 'repeats_beside'; at: number; count: number; beside: FileLine; region: Region | null }
  | { kind: 'ambiguous'; at: number[] }
  /** Its new lines already stand at 1-based line `at` (`count` lines) and its removed ones do not: applying it would copy them. */
  | { kind: 'already_applied'; at: number; count: number }
  /** It changes nothing: its new lines equal its old ones. */
  | { kind: 'no_change' }
  /**
   * Applied, it leaves a syntax error the file did not have (`every`: at every rung that could
   * apply it); `region` is the lines around the error after the edit.
   */
  | {
      kind: 'syntax_error';
      line: number;
      column: number;
      message: string;
      region: { start: number; lines: string[]; at: 'error' | 'change' };
      every: boolean;
    }
  | { kind: 'no_file' }
  /** No header named its file, and the name guessed from the text before it is not a file. */
  | { kind: 'guessed_path' }
  | { kind: 'exists' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'no_context' }
  | { kind: 'overlap' }
  | { kind: 'not_whole_file' }
  | { kind: 'invalid'; reason: string };

/** One hunk or block that could not be placed: the file, which edit ("hunk 2 (@@ -5,6 +5,6 @@)"), and why. */
export type EditFailure = { path: string; what: string } & FailureDetail;

/** An already_applied failure for new lines found at 0-based `where.at`. */
export function alreadyApplied(path: string, what: string, where: { at: number; count: number }): EditFailure {
  return { path, what, kind: 'already_applied', at: where.at + 1, count: where.count };
}

/** A not_found failure for `want` with the closest region of `file`, the lines missing from it and those its context skips. */
export function notFound(
  path: string,
  what: string,
  file: readonly string[],
  want: readonly string[],
  stated: number | null,
): EditFailure {
  const missing = missingLines(file, want);
  const region = closestRegion(file, want, stated);
  const skipped = missing.length > 0 ? [] : skippedLines(file, want, stated);
  const apart = missing.length > 0 || skipped.length > 0 ? [] : apartLines(file, want, region);
  return {
    path,
    what,
    kind: 'not_found',
    missing,
    region,
    skipped,
    ...(apart.length > 0 ? { apart } : {}),
  };
}

/** A repeats_beside failure for an edit whose lines `want` are at 0-based `at`, with `beside` next to them. */
export function repeatsBeside(
  path: string,
  what: string,
  file: readonly string[],
  want: readonly string[],
  at: number,
  beside: FileLine,
): EditFailure {
  return {
    path,
    what,
    kind: 'repeats_beside',
    at: at + 1,
    count: want.length,
    beside,
    region: closestRegion(file, want, at),
  };
}
