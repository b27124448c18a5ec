// Many runs at once: N real runs (real sandboxes, real git) started together on one engine, each
// against its own scripted Ollama server, for N = 1, 4, 8, 16. Wall time, throughput, failures,
// anything left on the engine, and how much of each prompt repeats the previous prompt's prefix.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { run } from '../src/api/run.js';
import { HammerError } from '../src/errors.js';
import { createDockerClient, DockerSandboxEngine } from '../src/sandbox/index.js';
import {
  benchEnv,
  counterPatch,
  makeGitRepo,
  pythonProjectFiles,
  removeDir,
  startScriptedOllama,
  type ScriptedOllama,
} from './fixtures.js';
import { heading, printFigure } from './lib.js';

const LEVELS = [1, 4, 8, 16];
const ITERATIONS = 3;
const MODEL = 'bench-model';
const fenced = (patch: string): string => `Bump the counter.\n\n\`\`\`diff\n${patch}\`\`\`\n`;

interface Outcome {
  ok: boolean;
  detail: string;
  iterations: number;
}

/** Run the concurrency benchmark and print its figures. */
export async function benchConcurrency(): Promise<void> {
  heading(
    `concurrency: N runs at once via run() (python fixture, ${ITERATIONS} iterations each, test command \`false\`, one scripted server per run)`,
  );
  const engine = new DockerSandboxEngine({ docker: createDockerClient(benchEnv()) });
  const throughput = new Map<number, number>();
  let prefixShares: number[] = [];
  for (const n of LEVELS) {
    const repos = await Promise.all(Array.from({ length: n }, () => makeGitRepo(pythonProjectFiles())));
    const servers: ScriptedOllama[] = await Promise.all(
      repos.map(() => startScriptedOllama((k) => fenced(counterPatch(k)), MODEL)),
    );
    try {
      const directive = join(repos[0]!, '..', `hb-bench-directive-${process.pid}.md`);
      await writeFile(directive, 'Bump VALUE in calc/counter.py by one.\n');
      const t0 = performance.now();
      const outcomes = await Promise.all(repos.map((repo, k) => oneRun(repo, directive, servers[k]!.url)));
      const wall = performance.now() - t0;
      await removeDir(directive);
      const runIds = (await Promise.all(repos.map(runIdsOf))).flat();
      const left = await engine.gc({ runIds });
      const failures = outcomes.filter((o) => !o.ok);
      const iterations = outcomes.reduce((t, o) => t + o.iterations, 0);
      throughput.set(n, (iterations / wall) * 1000);
      process.stdout.write(
        `N=${String(n).padStart(2)}: wall ${(wall / 1000).toFixed(1).padStart(5)} s, ${iterations} iterations, ` +
          `throughput ${((iterations / wall) * 60_000).toFixed(1)} iterations/min, failures ${failures.length}, ` +
          `leftovers ${left.containers.length} container(s) ${left.volumes.length} volume(s)\n`,
      );
      for (const f of failures.slice(0, 3)) process.stdout.write(`    failure: ${f.detail}\n`);
      prefixShares = (await Promise.all(repos.map(prefixShareOf))).flat();
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await Promise.all(repos.map(removeDir));
    }
  }
  const base = throughput.get(4);
  const top = throughput.get(16);
  if (base !== undefined && top !== undefined) {
    process.stdout.write(`throughput N=16 vs N=4: ratio ${(top / base).toFixed(2)}x (goal: not below 1)\n`);
  }
  if (prefixShares.length > 0) {
    printFigure({
      name: 'prompt prefix shared with the previous prompt (iterations 2+)',
      samples: prefixShares,
      unit: '%',
    });
  } else {
    process.stdout.write('prompt prefix share: not recorded by this build (the state has no shared_prefix_chars)\n');
  }
}

async function oneRun(repo: string, directive: string, url: string): Promise<Outcome> {
  try {
    const { state } = await run({
      repo,
      directive,
      env: benchEnv(),
      flags: {
        tools: { test_command: 'false' },
        loop: { max_iterations: ITERATIONS },
        model: { provider: 'ollama', name: MODEL, url },
      },
    });
    const applied = state.iterations.filter((i) => i.outcome === 'applied').length;
    const ok = state.reason === 'max_iterations' && applied === ITERATIONS;
    return { ok, iterations: applied, detail: `${state.run_id}: ${state.status}/${state.reason}, ${applied} applied` };
  } catch (err) {
    const code = err instanceof HammerError ? err.code : 'THROWN';
    return { ok: false, iterations: 0, detail: `${code}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

// read loosely: shared_prefix_chars is recorded by builds whose prompt is ordered for prefix reuse
const PromptsSchema = z.object({
  iterations: z.array(
    z.object({
      prompt: z.object({ chars: z.number(), shared_prefix_chars: z.number().optional() }).nullable(),
    }),
  ),
});

async function runIdsOf(repo: string): Promise<string[]> {
  const names = await readdir(join(repo, '.hammer', 'runs')).catch(() => []);
  return names.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length));
}

/** Per prompt after the first: the share (%) of its characters that repeat the previous prompt's prefix, when recorded. */
async function prefixShareOf(repo: string): Promise<number[]> {
  const out: number[] = [];
  for (const id of await runIdsOf(repo)) {
    const raw: unknown = JSON.parse(await readFile(join(repo, '.hammer', 'runs', `${id}.json`), 'utf8'));
    const { iterations } = PromptsSchema.parse(raw);
    for (const it of iterations) {
      const p = it.prompt;
      if (p?.shared_prefix_chars !== undefined && p.chars) out.push((100 * p.shared_prefix_chars) / p.chars);
    }
  }
  return out;
}
