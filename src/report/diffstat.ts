// The branch's diffstat as `git diff --stat` prints it, for PR_SUMMARY.md.
import type { RunState } from '../state/run-state.js';
import { sanitizeLine } from '../text/sanitize.js';

type Entry = NonNullable<NonNullable<RunState['branch']>['diffstat']>[number];

/** Widest bar of + and -. */
const BAR = 40;

/** " path | 4 ++--" lines and the "N files changed, X insertions(+), Y deletions(-)" total. */
export function renderDiffstat(entries: readonly Entry[]): string {
  if (entries.length === 0) return ' 0 files changed';
  const names = entries.map((e) => sanitizeLine(e.from === undefined ? e.path : `${e.from} => ${e.path}`));
  const width = Math.max(...names.map((n) => n.length));
  const most = Math.max(1, ...entries.map((e) => (e.added ?? 0) + (e.removed ?? 0)));
  const scale = most > BAR ? BAR / most : 1;
  const countWidth = Math.max(...entries.map((e) => String((e.added ?? 0) + (e.removed ?? 0)).length));
  const lines = entries.map((e, i) => {
    const name = names[i]!.padEnd(width);
    if (e.added === null || e.removed === null) return ` ${name} | Bin`;
    const plus = Math.round(e.added * scale) || (e.added > 0 ? 1 : 0);
    const minus = Math.round(e.removed * scale) || (e.removed > 0 ? 1 : 0);
    return ` ${name} | ${String(e.added + e.removed).padStart(countWidth)} ${'+'.repeat(plus)}${'-'.repeat(minus)}`;
  });
  const added = entries.reduce((n, e) => n + (e.added ?? 0), 0);
  const removed = entries.reduce((n, e) => n + (e.removed ?? 0), 0);
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  const total = [plural(entries.length, 'file changed', 'files changed')];
  if (added > 0) total.push(plural(added, 'insertion(+)', 'insertions(+)'));
  if (removed > 0) total.push(plural(removed, 'deletion(-)', 'deletions(-)'));
  return `${lines.join('\n')}\n ${total.join(', ')}`;
}
