// The runs table of `hammer-box runs list`: a header, then one line per run.
import type { RunState } from '../state/run-state.js';
import { finishedIterations, runVerdict } from '../verdict/index.js';
import { sanitizeLine, truncateText } from '../text/sanitize.js';

const WIDTH = { id: 23, status: 11, reason: 19, iterations: 5 } as const;

/** "<run_id>  <outcome>  <reason>  <n> it  <branch>  <directive's first line>", the branch padded to `branchWidth`. */
export function renderRunLine(state: RunState, branchWidth = 0): string {
  const n = finishedIterations(state).length;
  const directive = sanitizeLine(state.directive.text.split('\n').find((l) => l.trim() !== '') ?? '');
  const cells = [
    state.run_id.padEnd(WIDTH.id),
    runVerdict(state).outcome.padEnd(WIDTH.status),
    (state.reason ?? '-').padEnd(WIDTH.reason),
    `${n} it`.padStart(WIDTH.iterations),
    branchCell(state).padEnd(branchWidth),
    truncateText(directive, 60),
  ];
  return cells.join('  ').trimEnd();
}

/** The header and one aligned line per run. */
export function renderRunTable(states: RunState[]): string[] {
  const branchWidth = Math.max('BRANCH'.length, ...states.map((s) => branchCell(s).length));
  const header = [
    'RUN ID'.padEnd(WIDTH.id),
    'STATUS'.padEnd(WIDTH.status),
    'REASON'.padEnd(WIDTH.reason),
    'ITER'.padStart(WIDTH.iterations),
    'BRANCH'.padEnd(branchWidth),
    'DIRECTIVE',
  ].join('  ');
  return [header, ...states.map((s) => renderRunLine(s, branchWidth))];
}

function branchCell(state: RunState): string {
  return sanitizeLine(state.branch?.name ?? '-');
}
