// `hammer-box batch <tasks-file> --out <dir>`
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { runBatch } from '../../batch/batch.js';
import { RETRY_KINDS, type BatchStatus } from '../../batch/status.js';
import { HammerError } from '../../errors.js';
import { packageRoot } from '../../paths.js';
import { printOutsideLine } from '../terminal-text.js';
import { batchExitCode, renderBatchSummary } from '../batch-summary.js';
import { batchProgressRenderer } from '../batch-progress.js';
import { flagsToConfig, type ConfigFlags } from '../config-flags.js';
import { interruptSignal } from '../interrupt.js';
import { printJson } from '../terminal-json.js';

interface BatchFlags extends ConfigFlags {
  tasksFile: string;
  out?: string;
  jobs: number;
  modelJobs: number;
  taskTimeout: number;
  resume?: boolean;
  retry?: string;
  config?: string;
  json?: boolean;
  quiet?: boolean;
  logLevel?: string;
}

/** The statuses `--retry` names (a comma-separated list of infra, model, timeout, setup). */
export function parseRetry(value: string | undefined): BatchStatus[] {
  if (value === undefined) return [];
  const out: BatchStatus[] = [];
  for (const word of value.split(',').map((w) => w.trim())) {
    const status = Object.hasOwn(RETRY_KINDS, word) ? RETRY_KINDS[word] : undefined;
    if (status === undefined)
      throw new HammerError(
        'USAGE',
        `--retry ${JSON.stringify(value)}: ${JSON.stringify(word)} is not one of ${Object.keys(RETRY_KINDS).join(', ')}`,
        {
          hint: 'e.g. --retry infra, or --retry infra,model',
        },
      );
    if (!out.includes(status)) out.push(status);
  }
  return out;
}

export default async function batchCommand(f: BatchFlags): Promise<number> {
  // checked here, not by commander: a required option of `batch` would be required of `batch compare` too
  const out = f.out;
  if (out === undefined)
    throw new HammerError('USAGE', 'batch needs --out <dir>', {
      hint: 'name the batch directory: hammer-box batch tasks.jsonl --out results/run1',
    });
  const retry = parseRetry(f.retry);
  const { version } = z
    .object({ version: z.string() })
    .parse(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')));
  const emit = batchProgressRenderer(process.stderr, f.quiet === true);
  const result = await runBatch({
    tasksFile: f.tasksFile,
    out,
    jobs: f.jobs,
    modelJobs: f.modelJobs,
    taskTimeoutS: f.taskTimeout,
    resume: f.resume === true,
    retry,
    ...(f.config ? { configFile: f.config } : {}),
    flags: flagsToConfig(f),
    env: process.env,
    signal: interruptSignal(),
    emit,
    ...(f.logLevel ? { logLevel: f.logLevel } : {}),
    ...(f.quiet ? {} : { onImageProgress: (task: string, line: string) => printOutsideLine(`${task}: ${line}`) }),
    version,
  });
  if (f.json) printJson(result.report);
  else process.stdout.write(`${renderBatchSummary(result, rerunCommand(f, out)).join('\n')}\n`);
  return batchExitCode(result);
}

/** The command that continues this batch (its flags that change what runs; --resume and --retry added by the summary). */
function rerunCommand(f: BatchFlags, out: string): string[] {
  const argv = ['hammer-box', 'batch', f.tasksFile, '--out', out];
  if (f.config) argv.push('--config', f.config);
  if (f.provider) argv.push('--provider', f.provider);
  if (f.model) argv.push('--model', f.model);
  if (f.llmUrl) argv.push('--llm-url', f.llmUrl);
  if (f.maxIterations !== undefined) argv.push('--max-iterations', String(f.maxIterations));
  return argv;
}
