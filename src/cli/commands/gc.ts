// `hammer-box gc`
import { gc, type GcReport } from '../../api/gc.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { flagsToConfig } from '../config-flags.js';
import { interruptSignal } from '../interrupt.js';
import { printJson } from '../terminal-json.js';

/** One line per removed container, volume and network (pod and network policy on Kubernetes), or "nothing to remove". */
export function renderGcReport(report: GcReport): string[] {
  const lines = [
    ...report.containers.map((c) => `removed container ${sanitizeLine(c)}`),
    ...report.volumes.map((v) => `removed volume ${sanitizeLine(v)}`),
    ...report.networks.map((n) => `removed network ${sanitizeLine(n)}`),
  ];
  return lines.length > 0 ? lines : ['nothing to remove'];
}

export default async function gcCommand(f: {
  json?: boolean;
  config?: string;
  engine?: string;
  kubeContext?: string;
  run?: string[];
}): Promise<number> {
  const report = await gc({
    env: process.env,
    ...(f.run && f.run.length > 0 ? { runIds: f.run } : {}),
    signal: interruptSignal(),
    ...(f.config ? { configFile: f.config } : {}),
    flags: flagsToConfig({ engine: f.engine, kubeContext: f.kubeContext }),
  });
  if (f.json) printJson(report);
  else process.stdout.write(`${renderGcReport(report).join('\n')}\n`);
  return 0;
}
