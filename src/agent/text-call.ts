// What the readers of calls written in an answer's text share: one call found, and a reader of
// one format (where its next call opens, and the call or calls read there).
import type { CallFormat } from './types.js';

/** One call found in the text: its name and arguments, or what is wrong with it; where it is. */
export interface TextCall {
  name: string;
  args: Record<string, unknown>;
  problem: string | null;
  start: number;
  end: number;
}

/** What one opening held: its calls, where reading stopped, and whether the answer ends inside it (cut off). */
export interface TextRead {
  calls: TextCall[];
  end: number;
  unclosed: boolean;
}

/** A reader of one text format. */
export interface FormatReader {
  format: CallFormat;
  /** Where the next call of this format opens at or after `from`, or -1. */
  next(text: string, from: number): number;
  /** The call (or calls: a list) opening at `at`; null when it is no call after all (data, talk). */
  read(text: string, at: number): TextRead | null;
}

/** A global pattern's first match at or after `from`, or -1. */
export function nextMatch(re: RegExp, text: string, from: number): number {
  re.lastIndex = from;
  return re.exec(text)?.index ?? -1;
}
