// Naming a run the short way: its whole id, a prefix of it, a prefix of its random part (the six
// letters after the dash), or the last one started. Pure: the caller lists the ids.
import { RUN_ID_PATTERN } from './run-id.js';

/** What a person typed for a run: an id or part of one, or "the last run". */
export type RunRef = string | { last: true };

/** What a reference names among the ids: one run, none, or several (the reference is too short). */
export type RunRefMatch = { kind: 'one'; runId: string } | { kind: 'none' } | { kind: 'many'; runIds: string[] };

/**
 * The run `ref` names among `ids` (run ids, any order): the newest for `{ last: true }`; else the id
 * itself, or every id it starts, or every id whose random part it starts (`k3b7` for
 * 20261122T140501Z-k3b7qa).
 */
export function matchRunRef(ids: readonly string[], ref: RunRef): RunRefMatch {
  const runIds = [...new Set(ids.filter((id) => RUN_ID_PATTERN.test(id)))].sort().reverse();
  if (typeof ref !== 'string') return runIds[0] === undefined ? { kind: 'none' } : { kind: 'one', runId: runIds[0] };
  const wanted = ref.trim().toLowerCase();
  if (wanted === '') return { kind: 'none' };
  const exact = runIds.find((id) => id.toLowerCase() === wanted);
  if (exact !== undefined) return { kind: 'one', runId: exact };
  const hits = runIds.filter((id) => {
    const lower = id.toLowerCase();
    return lower.startsWith(wanted) || lower.slice(lower.indexOf('-') + 1).startsWith(wanted);
  });
  if (hits.length === 0) return { kind: 'none' };
  if (hits.length === 1) return { kind: 'one', runId: hits[0]! };
  return { kind: 'many', runIds: hits };
}
