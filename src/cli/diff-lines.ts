// A diff as a terminal shows it: each line sanitised (the diff quotes the repository and the model),
// tabs as spaces, coloured when colour is on (headers bold, hunks cyan, added green, removed red),
// and bounded: what does not fit is counted, with where to see it whole.
import { sanitizeText } from '../text/sanitize.js';
import type { Style } from './chat/style.js';

/** The diff's lines for a terminal: at most `maxLines`, then one line saying how many more and `whole`. */
export function diffLines(diff: string, style: Style, maxLines: number, whole: string): string[] {
  const lines = diff.replace(/\n$/, '').split('\n');
  if (diff === '') return [];
  const shown = lines.length > maxLines ? lines.slice(0, Math.max(1, maxLines - 1)) : lines;
  const out = shown.map((raw) => {
    const line = sanitizeText(raw).replace(/\t/g, '    ').replace(/\n/g, ' ');
    if (
      /^(diff --git |index |--- |\+\+\+ |new file mode |deleted file mode |rename (from|to) |similarity index |old mode |new mode |Binary files )/.test(
        line,
      )
    )
      return style.bold(line);
    if (line.startsWith('@@')) return style.cyan(line);
    if (line.startsWith('+')) return style.green(line);
    if (line.startsWith('-')) return style.red(line);
    return line;
  });
  const left = lines.length - shown.length;
  if (left > 0) out.push(style.dim(`… ${left} more line${left === 1 ? '' : 's'}: ${whole}`));
  return out;
}
