// The one summary a finished run prints: how it ended, baseline, final test, tokens, time, and what to run next.
import { describe, expect, it } from 'vitest';
import { progressRenderer } from '../../../src/cli/progress.js';
import { nextCommands, renderRunSummary } from '../../../src/cli/run-summary.js';
import { shellWord } from '../../../src/text/shell-word.js';
import { prTitle, TITLE_MAX } from '../../../src/report/pr-title.js';
import type { RunState } from '../../../src/state/run-state.js';
import { iteration, makeState, RUN_ID, testRecord } from '../state/make-state.js';

function passed(extra: Partial<RunState> = {}): RunState {
  const applied = iteration(1, 'applied', { patch: 'a', test: testRecord(0) });
  applied.answer = { ...applied.answer!, prompt_tokens: 12345, completion_tokens: 678 };
  return makeState({
    status: 'stable',
    reason: 'tests_pass',
    branch: { name: 'EngineerExternal/20261122T140501Z', commit: '9'.repeat(40) },
    iterations: [applied],
    ...extra,
  });
}

const outcome = (state: RunState) => ({
  state,
  statePath: `/home/u/repo/.hammer/runs/${RUN_ID}.json`,
  summaryPath: `/home/u/repo/.hammer/runs/${RUN_ID}/PR_SUMMARY.md`,
});

describe('renderRunSummary', () => {
  it('says once how the run ended, with the baseline, the final test, tokens, time, branch and files', () => {
    const lines = renderRunSummary(outcome(passed()), 83_000);
    expect(lines[0]).toBe('hammer-box: stable: tests pass (tests_pass) after 1 min 23 s');
    expect(lines.filter((l) => l.startsWith('hammer-box:'))).toHaveLength(1);
    expect(lines).toContain('  baseline   failed (exit 1 after 1.2 s)');
    expect(lines).toContain('  final test passed (exit 0 after 1.2 s)');
    expect(lines).toContain('  iterations 1 (1 applied)');
    expect(lines).toContain('  tokens     12,345 in, 678 out');
    expect(lines).toContain(`  branch     EngineerExternal/20261122T140501Z (${'9'.repeat(12)}), 1 commit on main`);
    expect(lines).toContain(`  summary    /home/u/repo/.hammer/runs/${RUN_ID}/PR_SUMMARY.md`);
    expect(lines.slice(lines.indexOf('next:'))).toEqual(['next:', ...nextCommands(passed()).map((c) => `  ${c}`)]);
  });

  it('repeats the warning of tests that pass at baseline on a fix, and the detail of baseline_failures_remain', () => {
    const state = makeState({
      status: 'stable',
      reason: 'tests_pass_baseline',
      baseline: testRecord(0),
      directive: { path: 'd.md', text: 'Fix the crash.', sha256: 'a'.repeat(64) },
      iterations: [iteration(1, 'no_changes')],
    });
    expect(renderRunSummary(outcome(state), 1000).find((l) => l.startsWith('  WARNING'))).toMatch(
      /^ {2}WARNING {4}the tests already pass at the base commit \(python3 -m pytest -q\), but the directive asks for a fix/,
    );
    const old = passed({ reason: 'baseline_failures_remain', reason_detail: 'the tests this change fixed pass' });
    expect(renderRunSummary(outcome(old), 1000)).toContain('             the tests this change fixed pass');
  });

  it('says a partial run is partial, the flaky baseline failures, and opens its pull request as a draft', () => {
    const failing = (ids: string[]) =>
      testRecord(1, {
        parsed: {
          runners: ['pytest'],
          failing: ids.map((id) => ({
            runner: 'pytest',
            scope: 'test',
            id,
            name: id,
            package: null,
            file: null,
            line: null,
          })),
          counts: [{ runner: 'pytest', passed: 3, failed: ids.length }],
        },
      });
    const rerun = failing(['t.py::test_a', 't.py::test_b']);
    rerun.scope = 'focused';
    rerun.parsed!.counts = [{ runner: 'pytest', passed: 1, failed: 2 }];
    const state = passed({
      status: 'partial',
      reason: 'max_iterations',
      reason_detail: '2 of 2 iterations without passing tests; 1 of the 2 targeted tests passes now',
      baseline: failing(['t.py::test_a', 't.py::test_b', 't.py::test_c']),
      baseline_rerun: rerun,
      iterations: [iteration(1, 'applied', { patch: 'a', test: failing(['t.py::test_b', 't.py::test_c']) })],
    });
    const lines = renderRunSummary(outcome(state), 1000);
    expect(lines[0]).toBe('hammer-box: partial: reached the iteration limit (max_iterations) after 1.0 s');
    expect(lines[1]).toBe('             2 of 2 iterations without passing tests; 1 of the 2 targeted tests passes now');
    expect(lines).toContain('  flaky      t.py::test_c (failed at baseline, passed when run again: not targets)');
    expect(nextCommands(state)[2]).toMatch(/--title 'WIP: [^']*' --body-file - --draft$/);
  });

  it('says no branch was made when no patch applied, and points at runs show', () => {
    const state = makeState({ status: 'failed', reason: 'max_iterations', iterations: [iteration(1, 'rejected')] });
    const lines = renderRunSummary(outcome(state), 1000);
    expect(lines).toContain('  branch     none (no patch was applied)');
    expect(lines.at(-1)).toBe(`  hammer-box runs show ${RUN_ID} --repo /home/u/repo`);
  });
});

describe('nextCommands', () => {
  it('opens the PR with hammer-box pr, or by hand: pushes the branch alone and opens a PR whose body is PR_SUMMARY.md, quoting what the shell would split', () => {
    const state = passed({ repo: { ...passed().repo, path: '/home/u/my repo' } });
    expect(nextCommands(state)).toEqual([
      `hammer-box pr ${RUN_ID} --repo '/home/u/my repo'`,
      `git -C '/home/u/my repo' push origin refs/heads/EngineerExternal/20261122T140501Z:refs/heads/EngineerExternal/20261122T140501Z`,
      `hammer-box runs show ${RUN_ID} --repo '/home/u/my repo' --pr-body | gh pr create --head EngineerExternal/20261122T140501Z --base main --title 'Fix the add function in calc.py so tests pass' --body-file -`,
    ]);
  });

  it('opens a draft from a run whose tests still fail, and leaves --base out for a detached base', () => {
    const base = 'b'.repeat(40);
    const state = passed({
      status: 'failed',
      reason: 'max_iterations',
      repo: { ...passed().repo, base_ref: base, base_commit: base },
      iterations: [iteration(1, 'applied', { patch: 'a', test: testRecord(1) })],
    });
    const pr = nextCommands(state)[2]!;
    expect(pr).not.toContain('--base');
    expect(pr).toMatch(/--title 'WIP: Fix the add function in calc.py so tests pass' --body-file - --draft$/);
  });

  it('shows a hostile base branch name (C1 controls, a bidi override) only escaped, on every line', () => {
    const ref = 'main\u009b31m\u202eevil\u0085';
    const state = passed({ repo: { ...passed().repo, base_ref: ref } });
    const lines = [...renderRunSummary(outcome(state), 1000), ...nextCommands(state)];
    for (const l of lines) expect(l).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
    expect(nextCommands(state)[2]).toContain("--base $'main\\u009b31m\\u202eevil\\u0085'");
  });

  it('resumes an interrupted run', () => {
    expect(nextCommands(makeState({ status: 'interrupted', reason: 'interrupted' }))).toEqual([
      `hammer-box resume ${RUN_ID} --repo /home/u/repo`,
    ]);
  });

  it('repeats the flags that chose the backend and trusted the repository, so the command is not refused', () => {
    const config = { sandbox: { engine: 'kubernetes', trusted_repo: true }, kubernetes: { context: 'kind hammer' } };
    expect(nextCommands(makeState({ status: 'interrupted', reason: 'interrupted', config }))).toEqual([
      `hammer-box resume ${RUN_ID} --repo /home/u/repo --engine kubernetes --kube-context 'kind hammer' --trusted-repo`,
    ]);
  });

  it('names the gc command for a sandbox the run left behind, first', () => {
    const gc = `hammer-box gc --run ${RUN_ID} --engine kubernetes`;
    const left = { sandbox: 'hammer-box-x-1', error: 'the cluster did not answer', at: '2026-11-22T14:30:00.000Z', gc };
    const state = makeState({
      status: 'failed',
      reason: 'max_iterations',
      left_behind: [left, { ...left, sandbox: 'y' }],
    });
    expect(nextCommands(state)).toEqual([gc, `hammer-box runs show ${RUN_ID} --repo /home/u/repo`]);
  });
});

describe('prTitle', () => {
  it("is the directive's first line, without markdown and a final period, whole up to GitHub's 256 characters", () => {
    expect(prTitle(passed())).toBe('Fix the add function in calc.py so tests pass');
    const words = 'Make all tests in test/calc.test.js pass, keeping the public API of src/calc.js as it is';
    const whole = passed({ directive: { path: '', text: `## ${words}.\n`, sha256: 'd'.repeat(64) } });
    expect(prTitle(whole)).toBe(words);
    const long = passed({
      directive: {
        path: '',
        text: `## please ${'make the parser accept dates '.repeat(20)}\n`,
        sha256: 'd'.repeat(64),
      },
    });
    const title = prTitle(long);
    expect(title.startsWith('Please make the parser')).toBe(true);
    expect(title.length).toBeLessThanOrEqual(TITLE_MAX);
    expect(title.length).toBeGreaterThan(200);
    expect(title.endsWith('…')).toBe(true);
  });

  it('shows no escape sequence from the directive', () => {
    const evil = passed({ directive: { path: '', text: '\u001b[31mfix\u0007 it', sha256: 'd'.repeat(64) } });
    expect(prTitle(evil)).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('the run header', () => {
  it('shows the base branch name sanitised', () => {
    let written = '';
    const out = { write: (s: string) => ((written += s), true), isTTY: false } as unknown as NodeJS.WriteStream;
    const render = progressRenderer(out, false);
    render({
      type: 'run_started',
      run_id: RUN_ID,
      repo: '/home/u/repo',
      base_ref: 'main\u009b2J\u202egnp',
      model: 'm',
      max_iterations: 3,
      at: '2026-01-01T00:00:00Z',
    });
    render.stop();
    expect(written).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
    expect(written).toContain('(main<U+202E>gnp)');
  });
});

describe('shellWord', () => {
  it('quotes plain, printable and unprintable words so a shell reads them back and a terminal shows them inert', () => {
    expect(shellWord('main')).toBe('main');
    expect(shellWord("it's here")).toBe(`'it'\\''s here'`);
    expect(shellWord("a\u001b[2J'\\\u202e")).toBe("$'a\\x1b[2J\\'\\\\\\u202e'");
  });
});
