// The message of each commit hammer-box makes.
import { UNSAFE_CLASS } from '../report/sanitize.js';

// controls and every character that hides or reorders text (see sanitize.ts) become spaces
const UNSAFE = new RegExp(`[${UNSAFE_CLASS}]+`, 'gu');

const MAX_SUMMARY = 72;

/** `hammer: iteration N - <summary>`, the summary reduced to one printable line of at most 72 chars. */
export function commitMessage(iteration: number, summary: string): string {
  let line = summary.replace(UNSAFE, ' ');
  line = line.replace(/\s+/g, ' ').trim();
  if (line.length > MAX_SUMMARY) line = `${line.slice(0, MAX_SUMMARY - 3).trimEnd()}...`;
  return `hammer: iteration ${iteration} - ${line || 'apply patch'}\n`;
}
