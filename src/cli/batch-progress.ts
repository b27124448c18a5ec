// A batch's progress for people, on stderr: one line when the batch starts, when an attempt starts
// and when it ends (with done / running / left, tasks resolved so far and the time left).
import type { BatchEvent, BatchProgress } from '../batch/events.js';
import { formatDuration } from '../text/markdown.js';
import { sanitizeLine, truncateText } from '../text/sanitize.js';

/** The most characters of an attempt's error or reason on its line. */
const DETAIL_CHARS = 200;

/** Done / running / left, resolved so far and the ETA, as one bracketed line part. Pure. */
export function progressText(p: BatchProgress): string {
  const eta = p.etaMs === null ? '' : `, about ${formatDuration(p.etaMs)} left`;
  return `[${p.done} done, ${p.running} running, ${p.left} left; resolved ${p.stable}/${p.finished}${eta}]`;
}

/** The stderr line of an event (null for none). Pure; every text from a run is sanitised. */
export function batchEventLine(e: BatchEvent): string | null {
  switch (e.type) {
    case 'batch_started':
      return (
        `hammer-box: batch of ${e.tasks} task${e.tasks === 1 ? '' : 's'}: ${e.toRun} attempt${e.toRun === 1 ? '' : 's'} to run` +
        `${e.kept ? `, ${e.kept} task${e.kept === 1 ? '' : 's'} already done` : ''}; ${e.jobs} at once, ` +
        `${e.modelJobs} model request${e.modelJobs === 1 ? '' : 's'} at once; model ${sanitizeLine(e.model)}; report ${sanitizeLine(e.report)}`
      );
    case 'attempt_started':
      return `  started  ${e.task} attempt ${e.attempt}${e.sample > 1 ? ` (sample ${e.sample})` : ''} ${progressText(e.progress)}`;
    case 'attempt_finished': {
      const detail =
        e.detail && e.status !== 'stable' ? ` - ${truncateText(sanitizeLine(e.detail), DETAIL_CHARS)}` : '';
      return `  ended    ${e.task} attempt ${e.attempt}: ${e.status} after ${formatDuration(e.wallMs)} (${e.iterations} iteration${e.iterations === 1 ? '' : 's'})${detail} ${progressText(e.progress)}`;
    }
    case 'notice':
      return `hammer-box: ${e.level === 'warning' ? 'WARNING: ' : ''}${sanitizeLine(e.text)}`;
  }
}

/** An emitter writing each event's line to `out`; `quiet` writes warnings only. */
export function batchProgressRenderer(
  out: NodeJS.WritableStream = process.stderr,
  quiet = false,
): (e: BatchEvent) => void {
  return (e) => {
    if (quiet && !(e.type === 'notice' && e.level === 'warning')) return;
    const line = batchEventLine(e);
    if (line !== null) out.write(`${line}\n`);
  };
}
