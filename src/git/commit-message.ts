// The message of each commit hammer-box makes.

const MAX_SUMMARY = 72;

/** `hammer: iteration N - <summary>`, the summary reduced to one printable line of at most 72 chars. */
export function commitMessage(iteration: number, summary: string): string {
  let line = summary.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ');
  line = line.replace(/\s+/g, ' ').trim();
  if (line.length > MAX_SUMMARY) line = `${line.slice(0, MAX_SUMMARY - 3).trimEnd()}...`;
  return `hammer: iteration ${iteration} - ${line || 'apply patch'}\n`;
}
