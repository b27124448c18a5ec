// `hammer-box doctor`
import { doctor, type DoctorReport } from '../../api/doctor.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { flagsToConfig, type ConfigFlags } from '../config-flags.js';
import { EXIT } from '../exit-codes.js';
import { interruptSignal } from '../interrupt.js';
import { printJson } from '../terminal-json.js';

interface DoctorFlags extends Pick<ConfigFlags, 'provider' | 'model' | 'llmUrl' | 'engine' | 'kubeContext'> {
  config?: string;
  repo?: string;
  json?: boolean;
}

const LABEL = { ok: 'ok', warn: 'warn', fail: 'FAIL' } as const;

/** One line per check ("ok", "warn" or "FAIL", the name, the detail), the next step under it, and a tally. */
export function renderDoctorReport(report: DoctorReport): string[] {
  const width = Math.max(0, ...report.checks.map((c) => c.name.length));
  const lines: string[] = [];
  for (const c of report.checks) {
    // Details quote the engine and the model server: outside text, never shown raw.
    lines.push(`${LABEL[c.status].padEnd(4)}  ${c.name.padEnd(width)}  ${sanitizeLine(c.detail)}`);
    if (c.hint && c.status !== 'ok') lines.push(`${' '.repeat(width + 6)}-> ${sanitizeLine(c.hint)}`);
  }
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  const warned = report.checks.filter((c) => c.status === 'warn').length;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  lines.push(
    failed === 0
      ? `ready${warned ? ` (${plural(warned, 'warning')})` : ''}`
      : `not ready: ${plural(failed, 'check')} failed${warned ? `, ${plural(warned, 'warning')}` : ''}`,
  );
  return lines;
}

/** 0 when nothing failed, 3 (environment unavailable) otherwise. */
export function doctorExitCode(report: DoctorReport): number {
  return report.ok ? EXIT.stable : EXIT.environment;
}

export default async function doctorCommand(f: DoctorFlags): Promise<number> {
  const report = await doctor({
    ...(f.repo ? { repo: f.repo } : {}),
    ...(f.config ? { configFile: f.config } : {}),
    flags: flagsToConfig({
      provider: f.provider,
      model: f.model,
      llmUrl: f.llmUrl,
      engine: f.engine,
      kubeContext: f.kubeContext,
    }),
    env: process.env,
    signal: interruptSignal(),
  });
  if (f.json) printJson(report);
  else process.stdout.write(`${renderDoctorReport(report).join('\n')}\n`);
  return doctorExitCode(report);
}
