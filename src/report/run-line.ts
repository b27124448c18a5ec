// One line per run, for `hammer-box runs list`.
import type { RunState } from '../state/run-state.js';
import { finishedIterations } from '../loop/stop-conditions.js';
import { sanitizeLine, truncateText } from './sanitize.js';

/** "<run_id>  <status>  <reason>  <n> it  <branch>  <directive's first line>". */
export function renderRunLine(state: RunState): string {
  const n = finishedIterations(state).length;
  const directive = sanitizeLine(state.directive.text.split('\n').find((l) => l.trim() !== '') ?? '');
  const cells = [
    state.run_id,
    state.status.padEnd(11),
    (state.reason ?? '-').padEnd(19),
    `${n} it`.padStart(5),
    sanitizeLine(state.branch?.name ?? '-'),
    truncateText(directive, 60),
  ];
  return cells.join('  ').trimEnd();
}
