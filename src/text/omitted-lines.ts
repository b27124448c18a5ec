// The marker that stands for lines left out of a shown output.

/** The line that stands for `n` lines left out (of an output, or of an old observation). */
export function omittedLines(n: number): string {
  return `(${n} ${n === 1 ? 'line' : 'lines'} of output omitted)`;
}
