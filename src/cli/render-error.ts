// Turning any thrown value into a message for the terminal and an exit code.
import { HammerError } from '../errors.js';
import { sanitizeText } from '../report/sanitize.js';
import { EXIT, exitCodeFor } from './exit-codes.js';

/** Message lines and exit code for an error; unknown errors are reported as internal (exit 1). */
export function renderError(err: unknown): { text: string; exitCode: number; code: string } {
  if (err instanceof HammerError) {
    const lines = [`hammer-box: error [${err.code}]: ${err.message}`];
    if (err.hint) lines.push(`  what to do: ${err.hint}`);
    const cause = err.cause instanceof Error ? err.cause.message : undefined;
    if (cause && !err.message.includes(cause)) lines.push(`  cause: ${cause}`);
    return { text: sanitizeText(lines.join('\n')), exitCode: exitCodeFor(err.code), code: err.code };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return {
    text: sanitizeText(
      `hammer-box: internal error: ${e.stack ?? e.message}\n  please report this with the run's events.ndjson`,
    ),
    exitCode: EXIT.notPassing,
    code: 'INTERNAL',
  };
}

/** The --json document of an error: its code, message, hint and exit code, and the run it ended when it had a state file. */
export function errorJson(err: unknown, exitCode: number): Record<string, unknown> {
  const e = err instanceof HammerError ? err : null;
  return {
    error: {
      code: e?.code ?? 'INTERNAL',
      message: sanitizeText(err instanceof Error ? err.message : String(err)),
      hint: e?.hint === undefined || e === null ? null : sanitizeText(e.hint),
      exit_code: exitCode,
    },
    run_id: e?.run?.id ?? null,
    state_path: e?.run?.statePath ?? null,
  };
}
