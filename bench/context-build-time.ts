// How long building the prompt takes on a 5,000-file repository in git: the first prompt of a run
// (nothing parsed yet) and a later one (texts and parses cached by blob id), in wall-clock and in this
// process's CPU time (which a loaded machine stretches less), beside the old selection's build.
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { z } from 'zod';
import { buildContext, ParseCache, warmContext, type ContextEntry } from '../src/context/index.js';
import { resolveUserRepo, Workbench } from '../src/git/index.js';
import { CONTEXT_READ_BYTES, workbenchSource } from '../src/loop/context-source.js';
import { noise, type ContextCase } from './context-corpus/index.js';
import { largeRepoFiles, makeGitRepo, removeDir } from './fixtures.js';
import { selectContextFiles } from './legacy-context.js';
import { buildPrompt as legacyPrompt, type PromptFile } from './legacy-prompt.js';
import { heading, printFigure } from './lib.js';
import { newPrompt, testRecord, type PromptLimits } from './context.js';

const TIMING_RUNS = 10;
/** Fresh processes per warm-up mode (each lists, warms and builds once). */
const FIRST_RUNS = 5;

/** One first prompt build in a fresh node process (bench/context-first-build.ts). */
async function firstBuild(dir: string, mode: 'rehearsal' | 'grammars'): Promise<{ wall: number; cpu: number }> {
  const script = fileURLToPath(new URL('./context-first-build.js', import.meta.url));
  const { stdout } = await execFileAsync(process.execPath, [script, dir, mode]);
  return z.object({ wall: z.number(), cpu: z.number() }).parse(JSON.parse(stdout));
}

/** Wall-clock and CPU milliseconds of each of `n` runs of `fn`, after one unmeasured run. */
async function sampleWithCpu(
  n: number,
  fn: (k: number) => Promise<unknown>,
): Promise<{ wall: number[]; cpu: number[] }> {
  await fn(-1);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let k = 0; k < n; k++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await fn(k);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    wall.push(performance.now() - t0);
  }
  return { wall, cpu };
}

const execFileAsync = promisify(execFile);

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * The prompt build on a 5,000-file repository in git: the tree listed, then the context and the prompt,
 * for `c` (its fault deep in a big module), for `searched` (its failure's message looked for with git
 * grep) and for `chained` (its fix several calls below the failing test, across packages), all in the
 * same repository.
 */
export async function benchBuildTime(
  c: ContextCase,
  searched: ContextCase,
  chained: ContextCase,
  limits: PromptLimits,
): Promise<void> {
  const own = { ...chained.files, ...searched.files, ...c.files };
  const files: Record<string, string> = { ...largeRepoFiles(5000 - Object.keys(own).length - 40, 40 * 1024 ** 2) };
  Object.assign(files, noise('python', 'vendor_like', 40), own);
  const paths = Object.keys(files);
  heading(`context: building the prompt on a ${paths.length}-file repository (git; first prompt and later ones)`);
  const dir = await makeGitRepo(files, 'hb-bench-context-');
  try {
    const repo = await resolveUserRepo(dir, 'main');
    const identity = { name: 'bench', email: 'bench@localhost' };
    const workbenches: Workbench[] = [];
    const fresh = async (): Promise<Workbench> => {
      const wb = await Workbench.create(repo, repo.baseCommit, { identity });
      workbenches.push(wb);
      return wb;
    };
    const budget = { chars: limits.budget_chars, fileMaxBytes: limits.file_max_bytes, mapChars: limits.map_chars };
    const build = async (wb: Workbench, cache: ParseCache, k = c): Promise<void> => {
      const listed = await wb.listTree(wb.head(), { maxEntries: 100_000 });
      const input = {
        tree: listed.entries,
        directive: k.directive,
        failureOutput: k.output,
        changed: new Map(),
        budget,
      };
      const context = await buildContext(input, workbenchSource(wb, wb.head()), cache);
      newPrompt(k, listed.entries, context, limits, k.output, '', 1);
    };
    const oldBuild = async (wb: Workbench): Promise<void> => {
      const listed = await wb.listTree(wb.head(), { maxEntries: 100_000 });
      await buildOld(c, wb, listed.entries, limits);
    };
    // as in a run: prepare lists the tree and warms the grammars while the sandbox starts
    const wbs = await Promise.all(Array.from({ length: 5 * (TIMING_RUNS + 1) + 1 }, fresh));
    for (const wb of wbs) await wb.listTree(wb.head(), { maxEntries: 100_000 });
    await warmContext(new ParseCache(), paths);
    const loadBefore = load();
    const cold = await sampleWithCpu(TIMING_RUNS, (k) => build(wbs[k + 1]!, new ParseCache()));
    const old = await sampleWithCpu(TIMING_RUNS, (k) => oldBuild(wbs[TIMING_RUNS + 2 + k]!));
    const cache = new ParseCache();
    const warmWb = wbs[2 * TIMING_RUNS + 3]!;
    const warm = await sampleWithCpu(TIMING_RUNS, () => build(warmWb, cache));
    const grep = await sampleWithCpu(TIMING_RUNS, (k) =>
      build(wbs[3 * TIMING_RUNS + 4 + k]!, new ParseCache(), searched),
    );
    const chain = await sampleWithCpu(TIMING_RUNS, (k) =>
      build(wbs[4 * TIMING_RUNS + 5 + k]!, new ParseCache(), chained),
    );
    process.stdout.write(
      `load average ${loadBefore} before these runs, ${load()} after (2 cores: above 2, runs wait for a core)\n`,
    );
    printFigure({
      name: 'first prompt (nothing parsed yet): read, parse, rank, render; wall',
      samples: cold.wall,
      reference: { name: 'old selection (heads of named files), wall', samples: old.wall },
      targetMedian: 100,
    });
    printFigure({
      name: '  the same, CPU time of this process (git excluded)',
      samples: cold.cpu,
      reference: { name: 'old selection, CPU time', samples: old.cpu },
    });
    printFigure({
      name: 'later prompt: texts, parses, tree index cached; wall',
      samples: warm.wall,
      targetMedian: 100,
    });
    printFigure({ name: '  the same, CPU time of this process', samples: warm.cpu });
    printFigure({
      name: "first prompt, the failure's message searched (git grep), its 2,700-line module parsed; wall",
      samples: grep.wall,
      targetMedian: 150,
    });
    printFigure({ name: '  the same, CPU time of this process (git excluded)', samples: grep.cpu });
    printFigure({
      name: 'first prompt, the call chain followed across Go packages (test/issues/819 → checker); wall',
      samples: chain.wall,
      targetMedian: 150,
    });
    printFigure({ name: '  the same, CPU time of this process (git excluded)', samples: chain.cpu });
    const lists = await Promise.all(Array.from({ length: TIMING_RUNS + 1 }, fresh));
    const listing = await sampleWithCpu(TIMING_RUNS, (k) => {
      const wb = lists[k + 1]!;
      return wb.listTree(wb.head(), { maxEntries: 100_000 });
    });
    const first = {
      new: { wall: [] as number[], cpu: [] as number[] },
      old: { wall: [] as number[], cpu: [] as number[] },
    };
    for (let k = 0; k < FIRST_RUNS; k++) {
      for (const mode of ['rehearsal', 'grammars'] as const) {
        const r = await firstBuild(dir, mode);
        const into = mode === 'rehearsal' ? first.new : first.old;
        into.wall.push(r.wall);
        into.cpu.push(r.cpu);
      }
    }
    process.stdout.write(
      `fresh processes (a run's first prompt), warmed while a 1 s sandbox start would run; load ${load()}\n`,
    );
    printFigure({
      name: "a run's first prompt (fresh process); wall",
      samples: first.new.wall,
      reference: { name: 'only the grammars loaded beforehand (before), wall', samples: first.old.wall },
      targetMedian: 100,
    });
    printFigure({
      name: '  the same, CPU time of the process (git excluded)',
      samples: first.new.cpu,
      reference: { name: 'only the grammars loaded beforehand (before), CPU', samples: first.old.cpu },
    });
    printFigure({ name: 'listing the tree (git ls-tree; done while the sandbox starts)', samples: listing.wall });
    for (const wb of workbenches) await wb.dispose();
  } finally {
    await removeDir(dir);
  }
}

/** The old selection's prompt, reading the heads of the files it picks through the workbench. */
async function buildOld(c: ContextCase, wb: Workbench, tree: ContextEntry[], limits: PromptLimits): Promise<void> {
  const record = testRecord(c.output, limits);
  const picks = selectContextFiles({
    directive: c.directive,
    testOutput: `${record.stdout_tail}\n${record.stderr_tail}`,
    changedFiles: [],
    tree,
    budget: { chars: limits.budget_chars, fileMaxBytes: limits.file_max_bytes },
  });
  const byPath = new Map(tree.map((e) => [e.path, e]));
  const blobs = await wb.readBlobs(
    picks.flatMap((p) => byPath.get(p.path) ?? []),
    { maxBytesPerFile: Math.min(limits.file_max_bytes, CONTEXT_READ_BYTES) },
  );
  let left = limits.budget_chars;
  const shown: PromptFile[] = [];
  for (const b of blobs) {
    if (b === null || b.binary || left <= 0) continue;
    const content = b.content.slice(0, Math.min(limits.file_max_bytes, left));
    left -= content.length;
    const pick = picks.find((p) => p.path === b.path)!;
    shown.push({ path: b.path, content, reason: pick.reason, truncated: pick.truncated });
  }
  legacyPrompt({
    directive: c.directive,
    iteration: 1,
    maxIterations: 10,
    signal: 'baseline: tests failing (exit 1)',
    diffSoFar: '',
    lastTest: record,
    lastRejection: null,
    tree: tree.map((e) => e.path),
    files: shown,
    limits,
    maxDiffLines: 500,
  });
}
