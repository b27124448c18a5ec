// Lines of outside text for the terminal (image builds, dependency setup, anything the sandbox
// printed): passed through the same sanitiser as PR_SUMMARY.md before they reach stderr.
import { sanitizeLine } from '../text/sanitize.js';

/** One line from outside (setup, build or sandbox output) on stderr, indented, with every control sequence removed. */
export function printOutsideLine(line: string, out: NodeJS.WritableStream = process.stderr): void {
  out.write(`  ${sanitizeLine(line)}\n`);
}
