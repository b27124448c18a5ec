// Turning what a person typed for a run (an id, part of one, --last) into the run's id, for every
// command that takes one (runs show, resume, replay, pr, monitor --run).
import { HammerError } from '../errors.js';
import { shellWord } from '../text/shell-word.js';
import { matchRunRef, type RunRef } from '../state/run-ref.js';

/** Ambiguous candidates named in the error, at most. */
const NAMED = 5;

/**
 * The one run id `ref` names among `ids`: RUN_NOT_FOUND when none (or no run at all for --last),
 * USAGE naming the candidates when several. `where` is the --repo the hint repeats ('' for none).
 */
export function pickRunId(ids: readonly string[], ref: RunRef, where = ''): string {
  const match = matchRunRef(ids, ref);
  const repo = where === '' || where === '.' ? '' : ` --repo ${shellWord(where)}`;
  const list = `list the runs with: hammer-box runs${repo}`;
  if (match.kind === 'one') return match.runId;
  if (match.kind === 'many') {
    const named = match.runIds.slice(0, NAMED).join(', ');
    const more = match.runIds.length > NAMED ? ` and ${match.runIds.length - NAMED} more` : '';
    throw new HammerError(
      'USAGE',
      `${JSON.stringify(typeof ref === 'string' ? ref : '')} names ${match.runIds.length} runs: ${named}${more}`,
      { hint: `give more of the id (or the letters after its dash); ${list}` },
    );
  }
  if (typeof ref !== 'string') throw new HammerError('RUN_NOT_FOUND', 'there is no run yet', { hint: list });
  throw new HammerError('RUN_NOT_FOUND', `no run ${JSON.stringify(ref)}`, {
    hint: `give a run id, the start of one, the letters after its dash, or --last; ${list}`,
  });
}

/** The run reference of a command's argument and --last (USAGE when both or neither are given). */
export function runRefOf(runId: string | undefined, last: boolean | undefined): RunRef {
  if (last === true && runId !== undefined)
    throw new HammerError('USAGE', `both a run id (${runId}) and --last`, { hint: 'give one of them' });
  if (last === true) return { last: true };
  if (runId === undefined)
    throw new HammerError('USAGE', 'which run?', {
      hint: 'give a run id (or its start, or the letters after its dash), or --last for the latest run',
    });
  return runId;
}
