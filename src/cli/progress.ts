// Progress for people, on stderr: a live status line on a TTY, one line per step otherwise.
import type { LoopEmitter, LoopEvent } from '../loop/events.js';
import { sanitizeLine } from '../text/sanitize.js';

/** An emitter that renders loop events to `out` (stderr); `quiet` renders nothing. */
export function progressRenderer(
  out: NodeJS.WriteStream = process.stderr,
  isTTY = out.isTTY === true,
  quiet = false,
): LoopEmitter & { stop(): void } {
  if (quiet) return Object.assign((_e: LoopEvent) => undefined, { stop: () => undefined });
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
        print(
          `hammer-box: run ${e.run_id} on ${sanitizeLine(e.repo)} (${sanitizeLine(e.base_ref)}) with ${sanitizeLine(e.model)}`,
        );
        if (isTTY && !timer) timer = setInterval(draw, 200).unref();
        break;
      case 'phase_started':
        phase = e.phase;
        iteration = e.iteration;
        phaseStart = Date.now();
        // the model reads the prompt before its first token (a large one on a local model takes minutes)
        model = e.phase === 'generate' ? 'waiting for the first token' : '';
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
        model = `${e.tokens.toLocaleString('en-US')} tokens, ${e.tps.toFixed(1)} tok/s`;
        break;
      case 'test_output':
        break;
      case 'agent_step': {
        const how = e.exit_code === null ? e.outcome : `exit ${e.exit_code}`;
        const action = sanitizeLine(e.action);
        print(
          `  iteration ${e.iteration} step ${e.step}: ${e.tool} ${action.length > 80 ? `${action.slice(0, 79)}…` : action} → ${how} (${(e.duration_ms / 1000).toFixed(1)}s; ${e.tokens} tokens)`,
        );
        break;
      }
      case 'iteration_finished':
        print(`  iteration ${e.iteration}: ${e.outcome} - ${sanitizeLine(e.summary)}`);
        break;
      case 'run_finished':
        if (timer) clearInterval(timer);
        timer = undefined;
        // the one summary of how the run ended is the result on stdout (or the error on stderr)
        if (isTTY && status) out.write('\r\u001b[2K');
        status = '';
        break;
    }
  };
  return Object.assign(emit, {
    stop: () => {
      if (timer) clearInterval(timer);
    },
  });
}
