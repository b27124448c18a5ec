// Runs for the monitor's tests and benchmark, written through the real RunStore and state
// transitions (no Docker, no model): a python fixture's iterations with prompts, answers,
// patches and test logs, optionally with hostile file names and test output.
import { join } from 'node:path';
import type { RunStore } from '../../src/state/store.js';
import { artifactNames } from '../../src/state/artifact-names.js';
import type { Iteration, RunState, TestRecord } from '../../src/state/run-state.js';
import {
  finishRun,
  newRunState,
  recordIterationPhase,
  recordRunPhase,
  startIteration,
  updateIteration,
} from '../../src/state/transitions.js';

/** A script that must never run: it marks the page (window.__canary) and asks the server for /canary. */
export const CANARY_SCRIPT = `<script>window.__canary = 1; fetch('/canary')</script>`;
/** A file name that is an HTML element with an event handler. */
export const HOSTILE_FILE = `<img src=x onerror="window.__canary=1;fetch('/canary')">.py`;

/** What a sample run looks like. */
export interface SampleRunOptions {
  runId: string;
  /** When the run starts (iterations follow a few seconds apart). */
  start?: Date;
  iterations?: number;
  /** The run's end (omit to leave it running). */
  end?: { status: Exclude<RunState['status'], 'running'>; reason: RunState['reason'] & string };
  /** Hostile file names, answers and test output. */
  hostile?: boolean;
  /** Bytes of each iteration's test log (default: a few hundred). */
  logBytes?: number;
  branch?: string;
  model?: string;
}

const at = (start: Date, ms: number): Date => new Date(start.getTime() + ms);

function patchText(n: number, file: string): string {
  return `diff --git a/${file} b/${file}
--- a/${file}
+++ b/${file}
@@ -1,4 +1,4 @@
 def add(a, b):
-    return a - b  # version ${n - 1}
+    return a + b  # version ${n}
 
 def sub(a, b):
`;
}

function testLog(n: number, bytes: number, hostile: boolean): string {
  const head = `$ python3 -m pytest -q\n# exit 1 after 812 ms\n----- stdout (${bytes} bytes) -----\n`;
  const fail = `FAILED tests/test_calc.py::test_add - assert add(1, 2) == 3${hostile ? ` ${CANARY_SCRIPT}` : ''}\n`;
  const filler = `tests/test_calc.py::test_case_${n} PASSED${' '.repeat(20)}\n`;
  let body = '';
  while (head.length + body.length + fail.length < bytes) body += filler;
  return `${head}${body}${fail}1 failed, 12 passed in 0.81s\n----- stderr (0 bytes) -----\n`;
}

function testRecord(n: number, passed: boolean, hostile: boolean, artifact: string, bytes: number): TestRecord {
  const name = hostile ? `test_add[${CANARY_SCRIPT}]` : 'test_add';
  return {
    command: 'python3 -m pytest -q',
    exit_code: passed ? 0 : 1,
    duration_ms: 812,
    timed_out: false,
    stdout_tail: passed
      ? '13 passed in 0.80s\n'
      : `FAILED tests/test_calc.py::${name} - assert add(1, 2) == 3\n1 failed, 12 passed in 0.81s\n`,
    stderr_tail: hostile && !passed ? `${CANARY_SCRIPT}\n` : '',
    parsed: {
      runners: ['pytest'],
      failing: passed
        ? []
        : [
            {
              runner: 'pytest',
              scope: 'test',
              id: `tests/test_calc.py::${name}`,
              name,
              package: null,
              file: 'tests/test_calc.py',
              line: 4,
            },
          ],
      counts: [{ runner: 'pytest', passed: passed ? 13 : 12, failed: passed ? 0 : 1 }],
    },
    total_bytes: bytes,
    dropped_bytes: 0,
    artifact,
  };
}

/** Start a run: its first state (setup, prepare and baseline done), as `hammer-box run` writes it. */
export async function startSampleRun(store: RunStore, o: SampleRunOptions): Promise<RunState> {
  const start = o.start ?? new Date('2026-11-22T14:05:01.000Z');
  let s = newRunState({
    runId: o.runId,
    now: start,
    repo: { path: '/home/u/calc', base_ref: 'main', base_commit: 'b'.repeat(40), base_tree: 'c'.repeat(40) },
    directive: { path: 'DIRECTIVE.md', text: 'Fix add() in calc.py so the tests pass.\n' },
    config: { loop: { max_iterations: 100 } },
    model: { provider: 'ollama', name: o.model ?? 'qwen3-coder:30b', url: 'http://user:secret@localhost:11434' },
    image: { ref: 'hammer-box/python:0123456789ab', id: `sha256:${'e'.repeat(64)}` },
    artifactsDir: store.artifactsDir(o.runId),
  });
  await store.create(s);
  s = recordRunPhase(s, 'setup', { status: 'done', started_at: start.toISOString(), duration_ms: 420 }, at(start, 420));
  s = recordRunPhase(
    s,
    'prepare',
    { status: 'done', started_at: at(start, 420).toISOString(), duration_ms: 800 },
    at(start, 1220),
  );
  const log = artifactNames.baselineTestLog();
  await store.writeArtifact(o.runId, log, testLog(0, 600, o.hostile ?? false));
  s = { ...s, baseline: testRecord(0, false, o.hostile ?? false, log, 600) };
  s = recordRunPhase(
    s,
    'baseline',
    { status: 'done', started_at: at(start, 1220).toISOString(), duration_ms: 812 },
    at(start, 2032),
  );
  await store.write(s);
  return s;
}

/**
 * Add iteration n (the next one), finished: applied, tests failing unless `passes`. Its artifacts
 * are written; its state too, unless `writeState` is false (the caller writes it, to time that write).
 */
export async function addSampleIteration(
  store: RunStore,
  state: RunState,
  o: SampleRunOptions,
  passes = false,
  writeState = true,
): Promise<RunState> {
  const runId = o.runId;
  const hostile = o.hostile ?? false;
  const n = (state.iterations.at(-1)?.n ?? 0) + 1;
  const t0 = new Date(Date.parse(state.created_at) + 2032 + (n - 1) * 3000);
  let s = startIteration(state, t0);
  const phase = (name: Parameters<typeof recordIterationPhase>[2], off: number, dur: number): void => {
    s = recordIterationPhase(
      s,
      n,
      name,
      { status: 'done', started_at: at(t0, off).toISOString(), duration_ms: dur },
      at(t0, off + dur),
    );
  };
  const file = hostile ? HOSTILE_FILE : 'calc.py';
  const prompt = await store.writeArtifact(
    runId,
    artifactNames.prompt(n),
    `# Directive\n\nFix add() in calc.py.\n\n## calc.py\n\n\`\`\`python\ndef add(a, b):\n    return a - b\n\`\`\`\n`,
  );
  const answerText = `The bug is in add().${hostile ? ` ${CANARY_SCRIPT} <b onmouseover="window.__canary=1">bold</b>` : ''}\n\n\`\`\`diff\n${patchText(n, file)}\`\`\`\n`;
  const answer = await store.writeArtifact(runId, artifactNames.answer(n), answerText);
  const patch = await store.writeArtifact(runId, artifactNames.patch(n), patchText(n, file));
  const logName = artifactNames.testLog(n);
  const bytes = o.logBytes ?? 400;
  await store.writeArtifact(runId, logName, testLog(n, bytes, hostile));
  phase('read_state', 0, 2);
  const change: Partial<Iteration> = {
    prompt: { chars: 180, artifact: prompt, ...(n > 1 ? { shared_prefix_chars: 120 } : {}) },
    context: {
      whole_repository: false,
      items: [
        { path: file, reason: 'failure', detail: 'named by the failing test', shown: 'whole', chars: 60 },
        { path: 'tests/test_calc.py', reason: 'failure', shown: 'regions', lines: '1-12', chars: 240 },
      ],
    },
    answer: {
      model: o.model ?? 'qwen3-coder:30b',
      prompt_tokens: 1200 + n,
      completion_tokens: 80,
      duration_ms: 1900,
      first_token_ms: 210,
      artifact: answer,
      finish_reason: 'stop',
    },
    extraction: { kind: 'diff', lines: 8, files: 1 },
    patch: {
      hash: (n % 16).toString(16).repeat(64),
      artifact: patch,
      files: [{ path: file, status: 'modified' }],
      lines: 8,
      added: 1,
      removed: 1,
      rung: 'as_is',
    },
    validation: { ok: true },
    apply: { commit: 'a'.repeat(40), tree: 'f'.repeat(40) },
    test: testRecord(n, passes, hostile, logName, bytes),
    outcome: 'applied',
    summary: hostile ? `edit ${file}` : `fix add() (attempt ${n})`,
  };
  s = updateIteration(s, n, change, at(t0, 2));
  phase('generate', 2, 1900);
  phase('extract', 1902, 3);
  phase('validate', 1905, 20);
  phase('apply', 1925, 15);
  phase('test', 1940, 812);
  phase('update_state', 2752, 4);
  if (writeState) await store.write(s);
  return s;
}

/** End a run (report and deliver phases, PR_SUMMARY.md) with the given status. */
export async function finishSampleRun(store: RunStore, state: RunState, o: SampleRunOptions): Promise<RunState> {
  const end = o.end ?? { status: 'failed', reason: 'max_iterations' };
  const t = new Date(Date.parse(state.iterations.at(-1)?.started_at ?? state.created_at) + 2800);
  let s = recordRunPhase(state, 'report', { status: 'done', started_at: t.toISOString(), duration_ms: 30 }, at(t, 30));
  const branch = o.branch ?? 'EngineerExternal/20261122T140501Z';
  s = { ...s, branch: end.status === 'stable' ? { name: branch, commit: '9'.repeat(40) } : null };
  s = recordRunPhase(
    s,
    'deliver',
    { status: end.status === 'stable' ? 'done' : 'skipped', started_at: at(t, 30).toISOString(), duration_ms: 40 },
    at(t, 70),
  );
  s = finishRun(s, { status: end.status, reason: end.reason, detail: null }, at(t, 70));
  await store.writeArtifact(
    o.runId,
    artifactNames.prSummary(),
    `# Fix add() in calc.py\n\n**Tests: failing before, passing now** (\`python3 -m pytest -q\`).\n\n| iteration | outcome |\n|---|---|\n| 1 | applied |\n\n<details><summary>Final test output</summary>\n\n\`\`\`text\n13 passed\n\`\`\`\n\n</details>\n\n${o.hostile ? `${CANARY_SCRIPT} <img src=x onerror="window.__canary=1"> [link](javascript:window.__canary=1)\n\n` : ''}<sub>Made by hammer-box, run \`${o.runId}\`.</sub>\n`,
  );
  await store.writeArtifact(
    o.runId,
    artifactNames.events(),
    `{"level":30,"msg":"run finished","run_id":"${o.runId}"}\n`,
  );
  await store.write(s);
  return s;
}

/** A whole run: start, `iterations` iterations (the last passing when it ends stable), the end. */
export async function writeSampleRun(store: RunStore, o: SampleRunOptions): Promise<RunState> {
  let s = await startSampleRun(store, o);
  const count = o.iterations ?? 2;
  for (let i = 1; i <= count; i++) s = await addSampleIteration(store, s, o, i === count && o.end?.status === 'stable');
  return o.end ? finishSampleRun(store, s, o) : s;
}

/** The state directory of a repository path (where hammer-box keeps runs by default). */
export function stateDirOf(repo: string): string {
  return join(repo, '.hammer');
}
