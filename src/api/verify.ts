// `hammer-box verify <run_id | branch>`: re-check a run's verdict. The run is done again from its
// sealed state (its base commit, directive and recorded answers, as `replay` does) in the image it
// recorded, offline and without delivering a branch, and its verdict is compared with the
// recorded one: the outcome, and which tests failed and passed at the baseline and at the end.
// When the recorded image is gone, `rebuild` makes the images again from the run's locks (the
// toolchain image exactly; the env image by the same setup, its lock compared).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Docker from 'dockerode';
import { HammerError } from '../errors.js';
import { inspectImage } from '../images/engine.js';
import { diffContent, ImageLockSchema, lockDigest, type ImageLock } from '../images/lock.js';
import type { LoopEmitter } from '../loop/events.js';
import { artifactNames } from '../state/artifact-names.js';
import type { RunState, TestRecord } from '../state/run-state.js';
import { repoImages } from './repo-images.js';
import { latestTest, readTest, runVerdict, type RunVerdict, type TestReading } from '../verdict/index.js';
import type { RunRef } from '../state/run-ref.js';
import type { RunStore } from '../state/store.js';
import { pickRunId } from './run-ref.js';
import { openRecordedRuns, runAgain } from './replay.js';
import type { RunOptions } from './run.js';

/** What `verify` takes. */
export interface VerifyOptions {
  repo: string;
  /** A run (its id, the start of one, the letters after its dash, or the latest), or the branch a run delivered. */
  target: RunRef;
  configFile?: string;
  flags?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  emit?: LoopEmitter;
  onImageProgress?: (line: string) => void;
  /** When the recorded image is gone: make the images again from the run's locks instead of refusing. */
  rebuild?: boolean;
}

/** A test run as a verdict compares it: what it said in a word, and which tests failed. */
export interface TestVerdict {
  reading: TestReading;
  failing: string[];
}

/** A run's verdict: its outcome (see runVerdict) and its baseline and final tests. */
export interface Verdict {
  outcome: RunVerdict['outcome'];
  why: string;
  baseline: TestVerdict | null;
  final: TestVerdict | null;
}

/** What `verify` found. */
export interface VerifyReport {
  run_id: string;
  /** The run that did it again (its state and artifacts are kept like any run's). */
  verify_run_id: string;
  reproduced: boolean;
  /** What differs, in words (empty when reproduced). */
  differences: string[];
  recorded: Verdict;
  now: Verdict;
  image: { id: string; how: 'recorded' | 'rebuilt'; lock_differences: string[] };
}

/** The verdict a state holds. */
export function verdictOf(state: RunState): Verdict {
  const applied = state.iterations.some((it) => it.outcome === 'applied');
  const last = latestTest(state);
  const verdict = runVerdict(state);
  return {
    outcome: verdict.outcome,
    why: verdict.why,
    baseline: state.baseline ? testVerdict(state.baseline) : null,
    final: applied && last && last !== state.baseline ? testVerdict(last) : null,
  };
}

function testVerdict(test: TestRecord): TestVerdict {
  return {
    reading: test.scope === undefined ? readTest(test) : 'failed',
    failing: [...new Set((test.parsed?.failing ?? []).map((f) => f.id))].sort(),
  };
}

/** How two verdicts differ, in words (empty: the same). */
export function compareVerdicts(recorded: Verdict, now: Verdict): string[] {
  const out: string[] = [];
  if (recorded.outcome !== now.outcome)
    out.push(`the run ended ${now.outcome} (${now.why}), recorded ${recorded.outcome} (${recorded.why})`);
  for (const which of ['baseline', 'final'] as const) {
    const r = recorded[which];
    const n = now[which];
    if (r === null && n === null) continue;
    if (r === null || n === null) {
      out.push(
        `the ${which} tests ${n === null ? 'did not run' : 'ran'} now, ${r === null ? 'not' : 'they did'} in the recorded run`,
      );
      continue;
    }
    if (r.reading !== n.reading) out.push(`the ${which} tests ${words(n.reading)} now; recorded: ${words(r.reading)}`);
    const newly = n.failing.filter((id) => !r.failing.includes(id));
    const fixed = r.failing.filter((id) => !n.failing.includes(id));
    if (newly.length > 0) out.push(`${which}: fail now, passed in the recorded run: ${newly.slice(0, 10).join(', ')}`);
    if (fixed.length > 0) out.push(`${which}: pass now, failed in the recorded run: ${fixed.slice(0, 10).join(', ')}`);
  }
  return out;
}

function words(reading: TestReading): string {
  return { passed: 'pass', failed: 'fail', no_tests: 'find no test', unread: 'are unread', timed_out: 'time out' }[
    reading
  ];
}

/** Do the run again and compare its verdict with the recorded one. */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const { repo, env, store } = await openRecordedRuns(options);
  const original = await findRun(store, options.target, options.repo);
  if (original.image === null)
    throw new HammerError(
      'USAGE',
      `run ${original.run_id} ended before its environment was ready: there is no verdict to verify`,
    );
  if (original.status === 'running')
    throw new HammerError('USAGE', `run ${original.run_id} has not ended: there is no verdict to verify yet`, {
      hint: `wait for it, or 'hammer-box resume ${original.run_id}'`,
    });
  const docker = new Docker();
  let pinnedImage: NonNullable<RunOptions['pinnedImage']> = original.image;
  let how: VerifyReport['image']['how'] = 'recorded';
  let lockDifferences: string[] = [];
  if (!(await inspectImage(docker, original.image.id, options.signal))) {
    if (!options.rebuild)
      throw new HammerError(
        'IMAGE_MISSING',
        `the image run ${original.run_id} used (${original.image.ref}) is not in the engine`,
        {
          hint: "'hammer-box images import' an archive that holds it, or 'hammer-box verify --rebuild' makes it again from the run's locks",
        },
      );
    const locks = await recordedLocks(store.artifactsDir(original.run_id), original);
    const made = await repoImages(docker, {
      repo,
      ...(options.configFile ? { configFile: options.configFile } : {}),
      env,
      baseCommit: original.repo.base_commit,
      ...(locks.toolchain ? { toolchainLock: locks.toolchain } : {}),
      ...(locks.env ? { envLock: locks.env } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onImageProgress ? { onProgress: options.onImageProgress } : {}),
    });
    how = 'rebuilt';
    const newEnv = made.lockObjects?.env;
    if (locks.env && newEnv) lockDifferences = diffContent(locks.env, newEnv);
    else if (locks.env && !newEnv) lockDifferences = ['the rebuilt environment has no env image'];
    pinnedImage = {
      ref: made.ref,
      id: made.id,
      toolchain: made.toolchain,
      env: made.env,
      ...(made.toolchain_version ? { toolchain_version: made.toolchain_version } : {}),
      ...(made.locks ? { locks: made.locks } : {}),
    };
  }
  const again = await runAgain(original, store, {
    repo,
    env,
    ...(options.configFile ? { configFile: options.configFile } : {}),
    ...(options.flags ? { flags: options.flags } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.emit ? { emit: options.emit } : {}),
    ...(options.onImageProgress ? { onImageProgress: options.onImageProgress } : {}),
    pinnedImage,
    deliver: false,
  });
  const recorded = verdictOf(original);
  const now = verdictOf(again.state);
  const differences = compareVerdicts(recorded, now);
  return {
    run_id: original.run_id,
    verify_run_id: again.state.run_id,
    reproduced: differences.length === 0,
    differences,
    recorded,
    now,
    image: { id: pinnedImage.id, how, lock_differences: lockDifferences },
  };
}

/** The run a target names: the newest run that delivered that branch, else the run its id (or part of it, or --last) names. */
async function findRun(store: RunStore, target: RunRef, repo: string): Promise<RunState> {
  if (typeof target === 'string' && !/^\d{8}T\d{6}Z-[a-z0-9]+$/.test(target)) {
    const { runs } = await store.list();
    const byBranch = runs.find((r) => r.branch?.name === target);
    if (byBranch) return byBranch;
  }
  return store.read(pickRunId(await store.runIds(), target, repo));
}

/** The run's locks (image-locks.json), each trusted only when its digest is the one its sealed state recorded. */
async function recordedLocks(dir: string, state: RunState): Promise<{ toolchain?: ImageLock; env?: ImageLock }> {
  const want = state.image?.locks ?? {};
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(dir, artifactNames.imageLocks()), 'utf8'));
  } catch {
    raw = [];
  }
  const locks = Array.isArray(raw)
    ? raw.map((l) => ImageLockSchema.safeParse(l).data).filter((l) => l !== undefined)
    : [];
  const out: { toolchain?: ImageLock; env?: ImageLock } = {};
  for (const lock of locks) {
    if (lock.kind === 'toolchain' && want.toolchain === lockDigest(lock)) out.toolchain = lock;
    if (lock.kind === 'env' && want.env === lockDigest(lock)) out.env = lock;
  }
  if (!out.toolchain && !out.env)
    throw new HammerError(
      'IMAGE_MISSING',
      `run ${state.run_id} recorded no lock of its images, so they cannot be rebuilt from one`,
      {
        hint: "'hammer-box images import' an archive that holds its image, or start a new run",
      },
    );
  return out;
}
