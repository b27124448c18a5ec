// `hammer-box verify <run_id | branch>`: do a run again in its recorded image and say whether its verdict reproduces.
import { runRefOf } from '../../api/run-ref.js';
import { verify, type Verdict, type TestVerdict } from '../../api/verify.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { interruptSignal } from '../interrupt.js';
import { progressRenderer } from '../progress.js';
import { printOutsideLine } from '../terminal-text.js';

/** Exit status of a verdict that did not reproduce. */
const CHANGED = 1;

export default async function verifyCommand(opts: {
  target?: string;
  last?: boolean;
  repo: string;
  config?: string;
  json?: boolean;
  quiet?: boolean;
  rebuild?: boolean;
}): Promise<number> {
  const progress = progressRenderer(process.stderr, process.stderr.isTTY === true, opts.quiet === true);
  let report;
  try {
    report = await verify({
      repo: opts.repo,
      target: runRefOf(opts.target, opts.last),
      ...(opts.config ? { configFile: opts.config } : {}),
      ...(opts.rebuild ? { rebuild: true } : {}),
      emit: progress,
      signal: interruptSignal(),
      ...(opts.quiet ? {} : { onImageProgress: printOutsideLine }),
    });
  } finally {
    progress.stop();
  }
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return report.reproduced ? 0 : CHANGED;
  }
  const w = (line: string): boolean => process.stdout.write(`${line}\n`);
  w(
    report.reproduced
      ? `verified: run ${report.run_id}'s verdict reproduces (${describe(report.now)})`
      : `CHANGED: run ${report.run_id}'s verdict does not reproduce`,
  );
  for (const d of report.differences) w(`  ${sanitizeLine(d)}`);
  w(
    `  image: ${report.image.how === 'recorded' ? 'the one the run recorded' : "rebuilt from the run's locks"} (${report.image.id.slice(0, 19)})`,
  );
  for (const d of report.image.lock_differences) w(`  environment differs: ${sanitizeLine(d)}`);
  w(`  the verification's own run: ${report.verify_run_id} (hammer-box runs show ${report.verify_run_id})`);
  return report.reproduced ? 0 : CHANGED;
}

function describe(v: Verdict): string {
  const test = (t: TestVerdict | null, what: string): string =>
    t === null
      ? ''
      : `; ${what} ${t.reading === 'failed' ? `failed${t.failing.length ? ` (${t.failing.length} failing)` : ''}` : t.reading.replace('_', ' ')}`;
  return `${v.outcome}${test(v.baseline, 'baseline')}${test(v.final, 'final tests')}`;
}
