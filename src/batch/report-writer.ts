// Rewriting report.json and report.md while a batch runs: one write at a time, the latest state
// always written last.
import { HammerError } from '../errors.js';
import type { BatchDir } from './batch-dir.js';
import { renderReportMarkdown } from './report-md.js';
import type { Report } from './report-schema.js';

/** Writes the report: at most one write at a time, and one more after it when asked meanwhile. */
export class ReportWriter {
  #writing: Promise<void> | null = null;
  #again = false;

  constructor(
    private readonly dir: BatchDir,
    private readonly build: () => Report,
  ) {}

  /** Ask for a rewrite (soon; a failure to write is retried at the next one). */
  schedule(): void {
    if (this.#writing) {
      this.#again = true;
      return;
    }
    this.#writing = this.#write().finally(() => {
      this.#writing = null;
      if (this.#again) {
        this.#again = false;
        this.schedule();
      }
    });
  }

  /** Write now (after the write in progress) and wait for it; `strict`: a failure to write throws. */
  async now(strict = false): Promise<void> {
    while (this.#writing) await this.#writing;
    this.#writing = this.#write(strict);
    try {
      await this.#writing;
    } finally {
      this.#writing = null;
    }
  }

  async #write(strict = false): Promise<void> {
    const r = this.build();
    try {
      await this.dir.writeReport(`${JSON.stringify(r, null, 2)}\n`, renderReportMarkdown(r));
    } catch (err) {
      if (!strict) return;
      throw new HammerError(
        'STATE_UNWRITABLE',
        `cannot write the report in ${this.dir.root}: ${err instanceof Error ? err.message : String(err)}`,
        {
          hint: 'free space there (or fix its permissions), then continue with --resume',
          cause: err,
        },
      );
    }
  }
}
