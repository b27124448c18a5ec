// The files and lines the diff so far changed, on its new side (pure).
import { parsePatch, stripPrefix } from '../patch/index.js';
import type { LineRange } from './types.js';

/** New-side line ranges each file of a diff changes: its added lines, and where lines were removed. */
export function changedRanges(diff: string): Map<string, LineRange[]> {
  const out = new Map<string, LineRange[]>();
  if (diff.trim() === '') return out;
  for (const f of parsePatch(diff, { overflow: 'hunk' }).files) {
    if (f.newPath === null || f.newPath === '/dev/null') continue;
    const path = stripPrefix(f.newPath, 'b/');
    const ranges: LineRange[] = [];
    const mark = (line: number): void => {
      const last = ranges.at(-1);
      if (last && line <= last.end + 1) last.end = Math.max(last.end, line);
      else ranges.push({ start: line, end: line });
    };
    for (const h of f.hunks) {
      let line = Math.max(1, h.newStart);
      for (const l of h.lines) {
        if (l.startsWith('+')) mark(line++);
        else if (l.startsWith('-')) mark(line);
        else if (!l.startsWith('\\')) line++;
      }
    }
    out.set(path, [...(out.get(path) ?? []), ...ranges]);
  }
  return out;
}
