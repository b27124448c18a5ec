// What the prompt's context is built from (buildContext's input).
import type { ContextBudget } from './plan.js';
import type { AskedItem, ContextEntry, LineRange } from './types.js';

/** What the context is built from. */
export interface ContextInput {
  /** The tree at the head the prompt shows. */
  tree: readonly ContextEntry[];
  directive: string;
  /** The last test run's output when it failed ('' when it passed or has not run). */
  failureOutput: string;
  /** Files changed so far and their new-side line ranges (see changedRanges). */
  changed: ReadonlyMap<string, readonly LineRange[]>;
  /** Files and ranges a caller adds (the model asked for them). */
  asked?: readonly AskedItem[];
  budget: ContextBudget;
  /** The sandbox's workspace path, stripped from absolute paths in test output (default /workspace). */
  workdir?: string;
}
