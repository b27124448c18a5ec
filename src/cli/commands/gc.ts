// `hammer-box gc`
import { gc, type GcReport } from '../../api/gc.js';
import { sanitizeLine } from '../../report/sanitize.js';
import { interruptSignal } from '../interrupt.js';
import { printJson } from '../terminal-json.js';

/** One line per removed container, volume and network, or "nothing to remove". */
export function renderGcReport(report: GcReport): string[] {
  const lines = [
    ...report.containers.map((c) => `removed container ${sanitizeLine(c)}`),
    ...report.volumes.map((v) => `removed volume ${sanitizeLine(v)}`),
    ...report.networks.map((n) => `removed network ${sanitizeLine(n)}`),
  ];
  return lines.length > 0 ? lines : ['nothing to remove'];
}

export default async function gcCommand(f: { json?: boolean }): Promise<number> {
  const report = await gc({ env: process.env, signal: interruptSignal() });
  if (f.json) printJson(report);
  else process.stdout.write(`${renderGcReport(report).join('\n')}\n`);
  return 0;
}
