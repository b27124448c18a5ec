// An attempt whose record still says it runs, found by a batch that continues: its process died.
// When its run's sealed state says the run ended, the attempt ended as that says.
import { openRunStore } from '../api/run-store.js';
import type { Config } from '../config/schema.js';
import { sanitizeLine, truncateText } from '../text/sanitize.js';
import type { AttemptRecord } from './attempt-record.js';
import type { BatchDir } from './batch-dir.js';
import { attemptRunOf, runEndOf } from './run-facts.js';
import { classifyAttempt } from './status.js';

/**
 * The record as it stands, or, for one left saying running whose run's sealed state says the run
 * ended, the record of that end (written back). Anything unreadable leaves the record unfinished.
 */
export async function recoverRecord(
  rec: AttemptRecord,
  dir: BatchDir,
  config: Config,
  env: NodeJS.ProcessEnv,
): Promise<AttemptRecord> {
  if (rec.status !== null) return rec;
  try {
    const store = await openRunStore(dir.repoPath(rec.task_id, rec.attempt), config, env);
    const { runs } = await store.list();
    const s = runs[0];
    if (runs.length !== 1 || !s) return rec;
    const status = classifyAttempt({ run: runEndOf(s), errorCode: null, timedOut: false, interrupted: false });
    if (status === 'unfinished') return rec;
    const fixed: AttemptRecord = {
      ...rec,
      status,
      finished_at: s.updated_at,
      wall_ms: Math.max(0, Date.parse(s.updated_at) - Date.parse(rec.started_at)),
      run: attemptRunOf(s),
      error:
        s.status === 'error'
          ? {
              code: s.errors.at(-1)?.code ?? 'INTERNAL',
              message: truncateText(sanitizeLine(s.errors.at(-1)?.message ?? ''), 2000),
            }
          : null,
    };
    await dir.writeRecord(fixed);
    return fixed;
  } catch {
    return rec;
  }
}
