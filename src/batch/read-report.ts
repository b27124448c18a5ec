// Reading a batch's report.json back (for `batch compare`): a batch directory or the file itself,
// size-capped and validated; a report from elsewhere is data, shown only sanitised.
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { HammerError } from '../errors.js';
import { BATCH_FILES } from './batch-dir.js';
import { ReportSchema, type Report } from './report-schema.js';

/** The largest report.json read. */
export const MAX_REPORT_BYTES = 256 * 1024 * 1024;

/** The report of the batch directory (or report.json) at `path`; USAGE saying what is wrong. */
export async function readBatchReport(path: string): Promise<Report> {
  const isDir = await stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
  const file = isDir ? join(path, BATCH_FILES.report) : path;
  let text: string;
  try {
    const fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw new Error('not a regular file');
      if (st.size > MAX_REPORT_BYTES) throw new Error(`over ${MAX_REPORT_BYTES} bytes`);
      text = (await fh.readFile()).toString('utf8');
    } finally {
      await fh.close();
    }
  } catch (err) {
    throw new HammerError(
      'USAGE',
      `cannot read the batch report ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      {
        hint: 'pass a batch directory (--out of hammer-box batch) or its report.json',
      },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HammerError('USAGE', `${file} is not JSON: ${(err as Error).message}`);
  }
  const parsed = ReportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HammerError(
      'USAGE',
      `${file} is not a batch report this hammer-box reads: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`,
      { hint: 'compare reports written by hammer-box batch (report.json, schema_version 1)' },
    );
  }
  return parsed.data;
}
