// The repository's changelog, where a fix adds its entry (pure): its newest section (`Unreleased`,
// the next version), shown after everything else when the budget has room left.
import type { Candidate } from './plan.js';
import { splitText } from './plan.js';
import type { TreeIndex } from './tree-index.js';

/** Names of changelogs, in the order they are preferred. */
const NAMES = ['CHANGES.rst', 'CHANGES.md', 'CHANGELOG.md', 'CHANGELOG.rst', 'CHANGELOG', 'CHANGES', 'HISTORY.md', 'HISTORY.rst', 'NEWS.md', 'NEWS.rst', 'NEWS']; // prettier-ignore
/** Lines of the newest section shown at most. */
const MAX_LINES = 40;
/** Lines shown when no second version heading is found. */
const DEFAULT_LINES = 24;

/** The changelog at the top of the tree (or in docs/), null when there is none. */
export function changelogPath(index: TreeIndex): string | null {
  for (const dir of ['', 'docs/']) {
    for (const name of NAMES) if (index.has(`${dir}${name}`)) return `${dir}${name}`;
  }
  return null;
}

/** The last line of a changelog's newest section: the line before its second version heading. */
export function newestSectionEnd(lines: readonly string[]): number {
  const headings: number[] = [];
  for (let i = 0; i < Math.min(lines.length, 400) && headings.length < 2; i++) {
    const line = lines[i]!;
    const next = lines[i + 1] ?? '';
    const versioned = /\bv?\d+\.\d+(?:\.\d+)?\b|\bunreleased\b/i.test(line);
    const heading =
      /^\s*#{1,4}\s/.test(line) || /^(?:version|release)\b/i.test(line) || /^\s*[=\-~^*]{3,}\s*$/.test(next);
    if (versioned && heading) headings.push(i + 1);
  }
  let end = Math.min(headings.length === 2 ? headings[1]! - 1 : DEFAULT_LINES, MAX_LINES, lines.length);
  while (end > 1 && lines[end - 1]!.trim() === '') end--;
  return Math.max(1, end);
}

/** The changelog as a candidate of the plan: its newest section, after every other file. */
export function changelogCandidate(path: string, text: string): Candidate {
  const end = newestSectionEnd(splitText(text));
  return {
    path,
    reason: 'repository',
    detail: 'its newest section, where the entry of a fix goes',
    distance: 98,
    order: Number.MAX_SAFE_INTEGER,
    text,
    // never whole: only the newest section matters
    truncated: true,
    analysis: null,
    relevant: true,
    score: 0,
    targets: { lines: [], names: [], ranges: [{ start: 1, end }], noHead: true },
    focusNames: [],
    changedRanges: [],
    changed: false,
    test: false,
  };
}
