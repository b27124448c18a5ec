import { describe, expect, it } from 'vitest';
import {
  finishRun,
  newRunState,
  recordError,
  recordIterationPhase,
  recordRunPhase,
  RunStateSchema,
  startIteration,
  updateIteration,
} from '../../../src/state/index.js';

const t = (s: number): Date => new Date(Date.UTC(2026, 10, 22, 14, 5, s));

function fresh() {
  return newRunState({
    runId: '20261122T140501Z-abcdef',
    now: t(1),
    repo: { path: '/r', base_ref: 'main', base_commit: 'a'.repeat(40), base_tree: 'b'.repeat(40) },
    directive: { path: 'd.md', text: 'a\n' },
    config: { loop: { max_iterations: 3 } },
    model: { provider: 'ollama', name: 'm', url: 'http://localhost:11434' },
    image: { ref: 'img', id: 'sha256:x' },
    artifactsDir: '/r/.hammer/runs/20261122T140501Z-abcdef',
  });
}

describe('state transitions', () => {
  it('builds a valid new run state with the directive hash', () => {
    const s = fresh();
    expect(RunStateSchema.safeParse(s).success).toBe(true);
    expect(s.directive.sha256).toBe('87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7');
    expect(s).toMatchObject({
      status: 'running',
      reason: null,
      iterations: [],
      baseline: null,
      created_at: '2026-11-22T14:05:01.000Z',
    });
  });

  it('records iterations and phases without mutating the state it was given', () => {
    const s0 = fresh();
    const done = { status: 'done' as const, started_at: t(2).toISOString(), duration_ms: 5 };
    let s = recordRunPhase(s0, 'baseline', done, t(2));
    s = startIteration(s, t(3));
    s = recordIterationPhase(s, 1, 'read_state', done, t(3));
    s = recordIterationPhase(s, 1, 'generate', { ...done, duration_ms: 900 }, t(4));
    s = updateIteration(
      s,
      1,
      { outcome: 'unusable', extraction: { kind: 'unusable', reason: 'empty' }, summary: 'empty answer' },
      t(5),
    );
    s = startIteration(s, t(6));
    s = recordError(s, { code: 'MODEL_UNREACHABLE', message: 'refused', phase: 'generate', iteration: 2 }, t(7));
    s = finishRun(s, { status: 'error', reason: 'error', detail: 'model unreachable' }, t(8));
    expect(RunStateSchema.safeParse(s).success).toBe(true);
    expect(s0.iterations).toEqual([]);
    expect(s0.phases).toEqual({});
    expect(s.iterations.map((i) => i.n)).toEqual([1, 2]);
    expect(Object.keys(s.iterations[0]!.phases)).toEqual(['read_state', 'generate']);
    expect(s.iterations[0]!.outcome).toBe('unusable');
    expect(s.iterations[1]!.outcome).toBeNull();
    expect(s.phases.baseline).toEqual(done);
    expect(s.errors).toEqual([
      { at: t(7).toISOString(), code: 'MODEL_UNREACHABLE', message: 'refused', phase: 'generate', iteration: 2 },
    ]);
    expect(s).toMatchObject({
      status: 'error',
      reason: 'error',
      reason_detail: 'model unreachable',
      updated_at: t(8).toISOString(),
    });
  });

  it('refuses to update an iteration that does not exist', () => {
    expect(() => updateIteration(fresh(), 1, { summary: 'x' }, t(2))).toThrow(/no iteration 1/);
  });
});
