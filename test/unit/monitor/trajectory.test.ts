// Agent mode's trajectory on a page: read leniently from the iteration, rendered as escaped steps.
import { describe, expect, it } from 'vitest';
import { renderTrajectory, trajectoryArtifacts, trajectoryOf } from '../../../src/monitor/render/trajectory.js';
import type { Iteration } from '../../../src/state/run-state.js';
import { iteration } from '../state/make-state.js';

const withTrajectory = (t: unknown): Iteration =>
  ({ ...iteration(1, 'applied'), trajectory: t }) as unknown as Iteration;

describe('trajectoryOf', () => {
  it('is null for a diff-mode iteration and for a shape it cannot read', () => {
    expect(trajectoryOf(iteration(1, 'applied'))).toBeNull();
    expect(trajectoryOf(withTrajectory('steps'))).toBeNull();
    expect(trajectoryOf(withTrajectory({ steps: [{ exit_code: 'zero' }] }))).toBeNull();
  });

  it('reads a list of steps, or {steps, artifact, end}', () => {
    const steps = [
      { tool: 'bash', action: 'grep -n add calc.py', observation: '1:def add', exit_code: 0, duration_ms: 12 },
      { name: 'str_replace', arguments: { path: 'calc.py', old: '-', new: '+' }, output: 'edited', refusal: undefined },
      { tool: 'submit' },
    ];
    const view = trajectoryOf(withTrajectory({ steps, artifact: 'iter-01-trajectory.json', end: 'submitted' }));
    expect(view?.end).toBe('submitted');
    expect(view?.steps.map((s) => [s.n, s.tool, s.exitCode, s.durationMs])).toEqual([
      [1, 'bash', 0, 12],
      [2, 'str_replace', null, null],
      [3, 'submit', null, null],
    ]);
    expect(view?.steps[1]?.action).toBe('calc.py\n{\n  "old": "-",\n  "new": "+"\n}');
    expect(trajectoryArtifacts(withTrajectory({ steps, artifact: 'iter-01-trajectory.json' }))).toEqual([
      'iter-01-trajectory.json',
    ]);
    expect(trajectoryOf(withTrajectory(steps))?.steps).toHaveLength(3);
  });

  it("reads agent mode's actions: the tool from the action, a shell command as it is, an edit as command and path", () => {
    const view = trajectoryOf(
      withTrajectory([
        { action: { tool: 'bash', command: 'pytest -q tests/test_calc.py' }, exit_code: 1 },
        { action: { tool: 'edit', command: 'str_replace', path: 'calc.py', oldStr: 'a - b', newStr: 'a + b' } },
        { action: { tool: 'submit' } },
      ]),
    );
    expect(view?.steps.map((s) => [s.tool, s.action])).toEqual([
      ['bash', 'pytest -q tests/test_calc.py'],
      ['edit', 'str_replace calc.py\n{\n  "oldStr": "a - b",\n  "newStr": "a + b"\n}'],
      ['submit', ''],
    ]);
  });

  it('refuses an artifact name that is a path', () => {
    expect(trajectoryOf(withTrajectory({ steps: [], artifact: '../../state.key' }))).toBeNull();
  });
});

describe('renderTrajectory', () => {
  it('shows each step escaped, with its exit code, and folds a long observation', () => {
    const view = trajectoryOf(
      withTrajectory([
        { tool: '<b>bash</b>', action: 'echo "<script>alert(1)</script>"', observation: '<img src=x>', exit_code: 1 },
        { tool: 'bash', action: 'seq 100', observation: Array.from({ length: 100 }, (_, i) => String(i)).join('\n') },
        { tool: 'str_replace', action: 'x', refusal: 'the path .github/workflows/ci.yml is sensitive' },
      ]),
    )!;
    const out = renderTrajectory(view, (n) => `/file/${n}`)
      .toString()
      .replace(/\s+/g, ' ');
    expect(out).not.toMatch(/<script|<img|<b>bash/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('exit 1');
    expect(out).toMatch(/<details> ?<summary>observation \(100 lines\)<\/summary>/);
    expect(out).toContain('refused');
    expect(out).toContain('3 steps');
  });
});
