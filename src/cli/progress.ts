// Progress for people, on stderr: a live status line on a TTY, one line per step otherwise.
import type { LoopEmitter, LoopEvent } from '../loop/events.js';
import { sanitizeLine } from '../report/sanitize.js';

/** An emitter that renders loop events to `out` (stderr). */
export function progressRenderer(
  out: NodeJS.WriteStream = process.stderr,
  isTTY = out.isTTY === true,
): LoopEmitter & { stop(): void } {
  const t0 = Date.now();
  let status = '';
  let maxIter = 0;
  let phase = '';
  let iteration: number | null = null;
  let phaseStart = Date.now();
  let model = '';
  let timer: NodeJS.Timeout | undefined;
  const elapsed = (): string => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
  const draw = (): void => {
    if (!isTTY) return;
    const where = iteration === null ? phase : `iteration ${iteration}/${maxIter} ${phase}`;
    const line = `  ${where} ${((Date.now() - phaseStart) / 1000).toFixed(1)}s${model ? ` · ${model}` : ''} · total ${elapsed()}`;
    out.write(`\r\u001b[2K${line.slice(0, (out.columns || 100) - 1)}`);
    status = line;
  };
  const print = (text: string): void => {
    if (isTTY && status) out.write('\r\u001b[2K');
    out.write(`${text}\n`);
    if (isTTY) draw();
  };
  const emit = (e: LoopEvent): void => {
    switch (e.type) {
      case 'run_started':
        maxIter = e.max_iterations;
        print(`hammer-box: run ${e.run_id} on ${sanitizeLine(e.repo)} (${e.base_ref}) with ${sanitizeLine(e.model)}`);
        if (isTTY && !timer) timer = setInterval(draw, 200).unref();
        break;
      case 'phase_started':
        phase = e.phase;
        iteration = e.iteration;
        phaseStart = Date.now();
        model = '';
        if (!isTTY && (e.phase === 'generate' || e.iteration === null))
          print(`  ${e.iteration === null ? '' : `iteration ${e.iteration}: `}${e.phase}...`);
        draw();
        break;
      case 'phase_finished':
        if (e.status === 'failed')
          print(
            `  ${e.iteration === null ? '' : `iteration ${e.iteration}: `}${e.phase} failed after ${(e.duration_ms / 1000).toFixed(1)}s`,
          );
        else if (e.iteration === null) print(`  ${e.phase} done in ${(e.duration_ms / 1000).toFixed(1)}s`);
        break;
      case 'notice':
        print(`hammer-box: ${e.level === 'warning' ? 'WARNING: ' : ''}${sanitizeLine(e.text)}`);
        break;
      case 'model_progress':
        model = `${e.tokens} tokens, ${e.tps.toFixed(1)} tok/s`;
        break;
      case 'test_output':
        break;
      case 'iteration_finished':
        print(`  iteration ${e.iteration}: ${e.outcome} - ${sanitizeLine(e.summary)}`);
        break;
      case 'run_finished':
        if (timer) clearInterval(timer);
        timer = undefined;
        if (isTTY && status) out.write('\r\u001b[2K');
        status = '';
        out.write(
          `hammer-box: ${e.status}${e.reason ? ` (${e.reason})` : ''}${e.detail ? `: ${sanitizeLine(e.detail)}` : ''} after ${elapsed()}\n`,
        );
        break;
    }
  };
  return Object.assign(emit, {
    stop: () => {
      if (timer) clearInterval(timer);
    },
  });
}
