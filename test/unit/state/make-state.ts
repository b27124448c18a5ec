// Builders for run states in unit tests.
import type { Iteration, RunState, TestRecord, Trajectory } from '../../../src/state/run-state.js';

export const RUN_ID = '20261122T140501Z-abcdef';
const T0 = '2026-11-22T14:05:01.000Z';

/** A test record with the given exit code. */
export function testRecord(exitCode: number, extra: Partial<TestRecord> = {}): TestRecord {
  return {
    command: 'python3 -m pytest -q',
    exit_code: exitCode,
    duration_ms: 1200,
    timed_out: false,
    stdout_tail:
      exitCode === 0
        ? '1 passed in 0.01s\n'
        : 'FAILED tests/test_calc.py::test_add - assert 1 == 3\n1 failed in 0.02s\n',
    stderr_tail: '',
    total_bytes: 60,
    dropped_bytes: 0,
    artifact: 'baseline-test.log',
    ...extra,
  };
}

const hashOf = (c: string): string => c.repeat(64).slice(0, 64);

/** An iteration; `patch` is a one-character seed for a fake hash ('a' -> 'aaaa...'). */
export function iteration(
  n: number,
  outcome: Iteration['outcome'],
  opts: { test?: TestRecord | null; patch?: string; reason?: string } = {},
): Iteration {
  const withPatch = opts.patch !== undefined;
  return {
    n,
    started_at: T0,
    phases: {
      read_state: { status: 'done', started_at: T0, duration_ms: 1 },
      generate: { status: 'done', started_at: T0, duration_ms: 5000 },
    },
    prompt: { chars: 1000, artifact: `iter-0${n}-prompt.md` },
    answer: {
      model: 'qwen3-coder:30b',
      duration_ms: 5000,
      first_token_ms: 300,
      artifact: `iter-0${n}-answer.md`,
      completion_tokens: 120,
    },
    extraction:
      outcome === 'unusable'
        ? { kind: 'unusable', reason: opts.reason ?? 'no unified diff found' }
        : outcome === 'no_changes'
          ? { kind: 'no_changes' }
          : { kind: 'diff', lines: 8, files: 1 },
    patch: withPatch
      ? {
          hash: hashOf(opts.patch!),
          artifact: `iter-0${n}.patch`,
          files: [{ path: 'calc.py', status: 'modified' }],
          lines: 8,
        }
      : null,
    validation:
      outcome === 'rejected'
        ? { ok: false, message: opts.reason ?? 'error: patch failed: calc.py:3' }
        : withPatch
          ? { ok: true }
          : null,
    apply: outcome === 'applied' ? { commit: `${n}`.repeat(40), tree: 'f'.repeat(40) } : null,
    test: opts.test ?? null,
    outcome,
    summary: outcome === 'applied' ? 'update calc.py' : String(outcome),
  };
}

/** A run state with sensible defaults. */
export function makeState(extra: Partial<RunState> = {}): RunState {
  return {
    schema_version: 1,
    run_id: RUN_ID,
    created_at: T0,
    updated_at: T0,
    status: 'running',
    reason: null,
    reason_detail: null,
    repo: { path: '/home/u/repo', base_ref: 'main', base_commit: 'b'.repeat(40), base_tree: 'c'.repeat(40) },
    directive: {
      path: 'DIRECTIVE.md',
      text: 'Fix the add function in calc.py so tests pass.\n',
      sha256: 'd'.repeat(64),
    },
    config: { loop: { max_iterations: 10 } },
    model: { provider: 'ollama', name: 'qwen3-coder:30b', url: 'http://localhost:11434' },
    image: { ref: 'hammer-box/python:0123456789ab', id: `sha256:${'e'.repeat(64)}` },
    sandbox: null,
    branch: null,
    phases: {},
    baseline: testRecord(1),
    iterations: [],
    artifacts_dir: '/home/u/repo/.hammer/runs/20261122T140501Z-abcdef',
    errors: [],
    ...extra,
  };
}

/** An agent trajectory of `steps` bash calls, one per turn, ended as `end` (null: unfinished). */
export function trajectory(
  n: number,
  steps: number,
  end: Trajectory['end'] = { reason: 'submitted', detail: 'submitted: 1 file changed' },
): Trajectory {
  return {
    artifact: `iter-0${n}-trajectory.md`,
    turns: Array.from({ length: steps }, (_, i) => ({
      k: i + 1,
      answer_artifact: `iter-0${n}-turn-${i + 1}-answer.md`,
      model: 'qwen3-coder:30b',
      prompt_tokens: 1000 + i,
      completion_tokens: 20,
      duration_ms: 900,
      parsed: 'actions' as const,
      prompt_chars: 4000 + 100 * i,
      ...(i > 0 ? { shared_prefix_chars: 4000 + 100 * (i - 1) } : {}),
    })),
    steps: Array.from({ length: steps }, (_, i) => ({
      k: i + 1,
      turn: i + 1,
      tool: 'bash' as const,
      action: `grep -n total calc.py # ${i + 1}`,
      shape: 'native' as const,
      outcome: 'ok' as const,
      exit_code: 0,
      observation: 'exit code 0\n4:def total(items):',
      observation_chars: 33,
      started_at: T0,
      duration_ms: 12,
      command_ms: 8,
    })),
    end,
  };
}
