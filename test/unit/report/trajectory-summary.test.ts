// Agent mode in PR_SUMMARY.md and `runs show`: a short account of each trajectory, every text from
// the model or the sandbox sanitised.
import { describe, expect, it } from 'vitest';
import { renderRunDetails } from '../../../src/cli/commands/runs-show.js';
import { tokenTotals } from '../../../src/cli/run-summary.js';
import { renderPrSummary } from '../../../src/report/pr-summary.js';
import { summaryExtras } from '../../../src/report/summary-extras.js';
import type { Iteration } from '../../../src/state/run-state.js';
import { iteration, makeState, testRecord, trajectory } from '../state/make-state.js';

const EVIL = '\u001b]0;owned\u0007\u001b[2J';

function agentRun() {
  const t = trajectory(1, 4);
  t.steps[1] = {
    ...t.steps[1]!,
    tool: 'edit',
    action: 'str_replace calc.py',
    path: 'calc.py',
    exit_code: undefined,
  };
  delete t.steps[1].exit_code;
  t.steps[2] = {
    ...t.steps[2]!,
    tool: 'edit',
    action: `create .github/workflows/x.yml${EVIL}`,
    path: '.github/workflows/x.yml',
    outcome: 'refused',
    observation: `edit refused: the patch edits a sensitive file${EVIL}`,
  };
  delete t.steps[2].exit_code;
  t.steps[3] = { ...t.steps[3]!, action: `python3 -m pytest -q ${EVIL}`, exit_code: 1, outcome: 'failed' };
  t.nudges = ['repeat'];
  const it: Iteration = {
    ...iteration(1, 'applied', { patch: 'a', test: testRecord(0) }),
    answer: null,
    trajectory: t,
  };
  return makeState({ status: 'stable', reason: 'tests_pass', iterations: [it] });
}

describe('trajectories in PR_SUMMARY.md', () => {
  it('counts turns, tool calls, commands, edits and refusals, and lists the commands and files edited', () => {
    const md = renderPrSummary(agentRun());
    expect(md).toContain('## Agent');
    expect(md).toContain('| 1 | 4 | 4 | 2 (1 failed) | 2 | 1 | submitted | 4086 |');
    expect(md).toContain('- Commands: `grep -n total calc.py # 1`, `python3 -m pytest -q');
    expect(md).toContain('- Files edited: `calc.py`');
    expect(md).toContain('- Refused: `create .github/workflows/x.yml');
    expect(md).not.toContain('\u001b');
    // the model's time of the iteration is its turns'
    expect(md).toContain('| 1 | applied | - | 1 | exit 0 | 3.6 s |');
  });

  it('leaves the section out of a diff-mode run', () => {
    expect(renderPrSummary(makeState({ iterations: [iteration(1, 'applied', { patch: 'a' })] }))).not.toContain(
      '## Agent',
    );
  });
});

describe("the model's explanation of an agent iteration", () => {
  it('is the prose of the turn that submitted, without its call', async () => {
    const state = agentRun();
    const last = state.iterations[0]!.trajectory!.turns.at(-1)!.answer_artifact;
    const texts: Record<string, string> = {
      [last]: 'The loop subtracted each item; it now adds them.\n\n<function=submit>\n</function>\n',
    };
    const extras = await summaryExtras(state, async (name) => texts[name] ?? Promise.reject(new Error('none')));
    expect(extras.explanation).toBe('The loop subtracted each item; it now adds them.');
  });
});

describe('trajectories in runs show and the run summary', () => {
  it('lists every tool call with its outcome, the refusals with why, and the trajectory line', () => {
    const text = renderRunDetails({ state: agentRun(), statePath: '/s', summaryPath: null, artifactsDir: '/a' }).join(
      '\n',
    );
    expect(text).toContain('trajectory: 4 turns, 4 tool calls, 4006 tokens in, 80 out');
    expect(text).toMatch(/% of each request repeated the last; ended submitted/);
    expect(text).toMatch(/1 bash\s+grep -n total calc.py # 1 → exit 0/);
    expect(text).toMatch(/2 edit\s+str_replace calc.py → ok/);
    expect(text).toMatch(/3 edit\s+create \.github\/workflows\/x\.yml.* → refused/);
    expect(text).toContain('edit refused: the patch edits a sensitive file');
    expect(text).toContain('nudged: repeat');
    expect(text).not.toContain('\u001b');
  });

  it("counts the trajectories' tokens in the run's totals", () => {
    expect(tokenTotals(agentRun())).toEqual({ in: 4006, out: 80 });
  });
});
