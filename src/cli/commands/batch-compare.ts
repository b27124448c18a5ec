// `hammer-box batch compare <A> <B>`
import { readBatchReport } from '../../batch/read-report.js';
import { compareReports } from '../../batch/compare.js';
import { renderComparison } from '../../batch/compare-render.js';
import { printJson } from '../terminal-json.js';

export default async function batchCompare(f: { a: string; b: string; json?: boolean }): Promise<number> {
  const [a, b] = await Promise.all([readBatchReport(f.a), readBatchReport(f.b)]);
  const c = compareReports(a, b);
  if (f.json)
    printJson({
      a: { report: f.a, model: a.model },
      b: { report: f.b, model: b.model },
      both: c.both,
      only_a: c.onlyA,
      only_b: c.onlyB,
      neither: c.neither,
      left_out: c.left,
      mcnemar_p: c.pValue,
      pass_at_k: { a: c.passA, b: c.passB, a_paired: c.pairedPassA, b_paired: c.pairedPassB },
    });
  else
    process.stdout.write(
      `${renderComparison(c, { a: { label: f.a, model: a.model }, b: { label: f.b, model: b.model } })}\n`,
    );
  return 0;
}
