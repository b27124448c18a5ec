// `make bench`: print the machine, then run the benchmark sections in order (all, or those named
// in argv). Benchmarks print figures; the exit code only says whether a section crashed.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../src/paths.js';
import { createDockerClient, DockerSandboxEngine } from '../src/sandbox/index.js';
import { benchAgent } from './agent.js';
import { benchArtifacts } from './artifacts.js';
import { benchBatch } from './batch.js';
import { benchConcurrency } from './concurrency.js';
import { benchContext } from './context.js';
import { benchEdits } from './edits.js';
import { benchFocus } from './focus.js';
import { benchRuntime } from './fixtures.js';
import { benchImages } from './images.js';
import { benchLoop, benchLoopIteration, benchLoopStartup } from './loop.js';
import { benchMonitor } from './monitor.js';
import { benchParsers } from './parsers.js';
import { benchSandbox } from './sandbox.js';
import { benchSyntax } from './syntax.js';

/** The sections, in the order they run. */
const SECTIONS: Record<string, () => Promise<void>> = {
  sandbox: benchSandbox,
  images: benchImages,
  loop: benchLoop,
  startup: benchLoopStartup,
  iteration: benchLoopIteration,
  concurrency: benchConcurrency,
  batch: benchBatch,
  focus: benchFocus,
  edits: benchEdits,
  parsers: benchParsers,
  syntax: benchSyntax,
  context: benchContext,
  monitor: benchMonitor,
  agent: benchAgent,
  artifacts: benchArtifacts,
};

/**
 * Sections that run only when named: artifacts removes and rebuilds the engine's hammer-box images;
 * startup and iteration are parts of another section (loop), which a whole run has once.
 */
const ONLY_WHEN_NAMED = new Set(['artifacts', 'startup', 'iteration']);

async function printMachine(): Promise<void> {
  const { version } = z
    .object({ version: z.string() })
    .parse(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')));
  const cpu = cpus();
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  let engine: string;
  try {
    const info = await new DockerSandboxEngine({ docker: createDockerClient() }).info();
    engine = `Docker ${info.serverVersion} (API ${info.apiVersion}, ${info.os}/${info.architecture}, cgroup v${info.cgroupVersion || '?'})`;
  } catch (err) {
    engine = `unavailable (${err instanceof Error ? err.message : String(err)})`;
  }
  process.stdout.write(
    [
      `hammer-box ${version} benchmarks, ${new Date().toISOString()}`,
      `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown cpu'}), load average ${load}, node ${process.version}`,
      `engine:  ${engine}`,
      `runtime: ${benchRuntime() || "the engine's default"} (make bench RUNTIME=runsc for gVisor)`,
      '',
    ].join('\n'),
  );
}

async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((a) => !(a in SECTIONS));
  if (unknown.length > 0) {
    process.stderr.write(
      `bench: unknown section(s) ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}\n`,
    );
    return 2;
  }
  const chosen = Object.keys(SECTIONS).filter((s) => (argv.length === 0 ? !ONLY_WHEN_NAMED.has(s) : argv.includes(s)));
  await printMachine();
  const crashed: string[] = [];
  for (const name of chosen) {
    const t0 = performance.now();
    try {
      await SECTIONS[name]!();
    } catch (err) {
      crashed.push(name);
      process.stdout.write(
        `\nsection ${name} CRASHED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
    }
    process.stdout.write(`(section ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
  }
  process.stdout.write(
    `\n${chosen.length - crashed.length} section(s) ran${crashed.length ? `, ${crashed.length} crashed: ${crashed.join(', ')}` : ''}\n`,
  );
  return crashed.length ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
