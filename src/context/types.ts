// What the context layer decides: the files and regions a prompt shows, and why.

import { SHOWN_REASONS } from '../state/run-state.js';

export { SHOWN_REASONS };
/** Why something is shown (see SHOWN_REASONS: the state records the same reasons). */
export type ShownReason = (typeof SHOWN_REASONS)[number];

/** A regular file of the tree the context may read (src/git's TreeEntry fits). */
export interface ContextEntry {
  path: string;
  /** The blob id: parses are cached by it. */
  oid: string;
  size: number;
  /** symlink and submodule entries are never read. */
  kind?: string;
}

/** A file's text as read for the context (cut at the reader's cap when truncated). */
export interface ContextText {
  path: string;
  oid: string;
  text: string;
  truncated: boolean;
}

/** A range of lines, 1-based and inclusive. */
export interface LineRange {
  start: number;
  end: number;
}

/** One file as the prompt shows it: whole, or as regions with elision markers. */
export interface ShownFile {
  path: string;
  reason: ShownReason;
  /** Why, in a few words: "imported by tests/test_calc.py", "line 7 of the failure". */
  detail: string;
  /** Shown whole (else only `ranges`). */
  whole: boolean;
  /** The lines shown. */
  ranges: LineRange[];
  /** Lines in the file. */
  totalLines: number;
  /** The text to show: the file, or its regions with line markers and elision markers. */
  text: string;
  /**
   * `text` with each part in focus replaced by a marker naming it: what stays the same while the
   * model keeps changing those parts (the prompt shows it early, and the parts late).
   */
  stableText: string;
  /**
   * The definitions the failure points at, the failing code uses, or the changes so far touched, as
   * they are now: the code most likely to change next (none in test files unless changed).
   */
  focusParts: FocusPart[];
  /** The file differs from the base commit (the prompt puts those last: what changes goes last). */
  changed: boolean;
  /** The file holds tests. */
  test: boolean;
}

/** A part of a file in focus, as it is now. */
export interface FocusPart extends LineRange {
  /** What it is: the definition's qualified name, or "lines A-B". */
  label: string;
  /** The changes so far touched it. */
  changed: boolean;
  text: string;
}

/** The repository map: an outline of definitions of other relevant files. */
export interface RepositoryMap {
  text: string;
  /** The files outlined, their definitions listed and the characters of their part. */
  files: { path: string; definitions: number; chars: number }[];
}

/** A file or region the caller adds on request (the model asked for it). */
export interface AskedItem {
  path: string;
  /** Ranges to show; the whole file (within the caps) when omitted. */
  ranges?: LineRange[];
}

/** Everything the prompt shows besides the directive, status, diff and test output. */
export interface ContextResult {
  /** Shown files, most relevant first. */
  files: ShownFile[];
  map: RepositoryMap | null;
  /** Every source file fitted the budget and is shown whole. */
  wholeRepository: boolean;
  /** How many source files the tree has (those the small-repository rule counts). */
  sourceFiles: number;
  /** Texts read to build the context, for callers that need the same files again. */
  read: ContextText[];
}
