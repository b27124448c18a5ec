// Machine logs: pino NDJSON, to a run's events.ndjson or nowhere.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** A logger writing NDJSON to `file` (created with its directory), or a silent one without a file. */
export function createLogger(options: { level?: string; file?: string; base?: Record<string, unknown> } = {}): Logger {
  if (!options.file) return pino({ level: 'silent' });
  mkdirSync(dirname(options.file), { recursive: true });
  const dest = pino.destination({ dest: options.file, sync: true, mkdir: true });
  return pino(
    { level: options.level ?? 'info', base: options.base ?? null, timestamp: pino.stdTimeFunctions.isoTime },
    dest,
  );
}
