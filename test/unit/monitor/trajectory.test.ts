// Agent mode's trajectory on a page: read from the iteration's recorded trajectory, rendered as escaped steps.
import { describe, expect, it } from 'vitest';
import { renderTrajectory, trajectoryArtifacts, trajectoryOf } from '../../../src/monitor/render/trajectory.js';
import { IterationSchema, type AgentStep, type Iteration, type Trajectory } from '../../../src/state/run-state.js';
import { iteration } from '../state/make-state.js';

const AT = '2026-01-01T00:00:00.000Z';
const step = (k: number, over: Partial<AgentStep>): AgentStep => ({
  k,
  turn: k,
  tool: 'bash',
  action: '',
  shape: 'native',
  outcome: 'ok',
  observation: '',
  observation_chars: 0,
  started_at: AT,
  duration_ms: 10,
  ...over,
});
const trajectory = (steps: AgentStep[], end: Trajectory['end'] = null): Trajectory => ({
  artifact: 'iter-01-trajectory.md',
  turns: steps.map((s) => ({
    k: s.turn,
    answer_artifact: `iter-01-turn-${s.turn}-answer.md`,
    model: 'm',
    prompt_tokens: 100 * s.turn,
    completion_tokens: 7,
    duration_ms: 5,
    parsed: 'actions' as const,
    prompt_chars: 400,
  })),
  steps,
  end,
});
// through the state's own schema, as a run read from disk is
const withTrajectory = (t: Trajectory): Iteration =>
  IterationSchema.parse({ ...iteration(1, 'applied'), trajectory: t });

describe('trajectoryOf', () => {
  it('is null for a diff-mode iteration', () => {
    expect(trajectoryOf(iteration(1, 'applied'))).toBeNull();
    expect(trajectoryArtifacts(iteration(1, 'applied'))).toEqual([]);
  });

  it('reads the recorded steps, the turn tokens, the artifact and how it ended', () => {
    const view = trajectoryOf(
      withTrajectory(
        trajectory(
          [
            step(1, { action: 'grep -n add calc.py', observation: '1:def add', exit_code: 0, duration_ms: 12 }),
            step(2, { tool: 'edit', action: 'str_replace calc.py', path: 'calc.py', observation: 'edited' }),
            step(3, { tool: 'bash', action: 'sleep 999', outcome: 'failed', timed_out: true }),
            step(4, { tool: 'submit', action: 'submit' }),
          ],
          { reason: 'submitted', detail: '' },
        ),
      ),
    );
    expect(view?.end).toBe('submitted');
    expect(view?.steps.map((s) => [s.n, s.tool, s.exitCode, s.durationMs, s.tokens.in])).toEqual([
      [1, 'bash', 0, 12, 100],
      [2, 'edit', null, 10, 200],
      [3, 'bash', 124, 10, 300],
      [4, 'submit', null, 10, 400],
    ]);
    expect(trajectoryArtifacts(withTrajectory(trajectory([])))).toEqual(['iter-01-trajectory.md']);
  });

  it('shows a refused call as a refusal and a bound as the end with its detail', () => {
    const view = trajectoryOf(
      withTrajectory(
        trajectory(
          [
            step(1, {
              tool: 'edit',
              outcome: 'refused',
              observation: 'the path .github/workflows/ci.yml is sensitive',
            }),
          ],
          { reason: 'max_steps', detail: '40 steps' },
        ),
      ),
    );
    expect(view?.steps[0]?.refusal).toBe('the path .github/workflows/ci.yml is sensitive');
    expect(view?.end).toBe('max_steps: 40 steps');
  });
});

describe('renderTrajectory', () => {
  it('shows each step escaped, with its exit code, and folds a long observation', () => {
    const view = trajectoryOf(
      withTrajectory(
        trajectory([
          step(1, { action: 'echo "<script>alert(1)</script>"', observation: '<img src=x>', exit_code: 1 }),
          step(2, { action: 'seq 100', observation: Array.from({ length: 100 }, (_, i) => String(i)).join('\n') }),
          step(3, {
            tool: 'edit',
            action: 'x',
            outcome: 'refused',
            observation: 'the path .github/workflows/ci.yml is sensitive',
          }),
        ]),
      ),
    )!;
    const out = renderTrajectory(view, (n) => `/file/${n}`)
      .toString()
      .replace(/\s+/g, ' ');
    expect(out).not.toMatch(/<script|<img/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('exit 1');
    expect(out).toMatch(/<details> ?<summary>observation \(100 lines\)<\/summary>/);
    expect(out).toContain('refused');
    expect(out).toContain('3 steps');
    expect(out).toContain('turn tokens 100 in, 7 out');
    expect(out).toContain('href="/file/iter-01-trajectory.md"');
  });
});
