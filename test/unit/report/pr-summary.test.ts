import { describe, expect, it } from 'vitest';
import { assessRisk } from '../../../src/report/risk.js';
import { renderPrSummary } from '../../../src/report/pr-summary.js';
import { renderRunLine } from '../../../src/report/run-line.js';
import { summarizePatch } from '../../../src/patch/patch-summary.js';
import type { TestRecord } from '../../../src/state/run-state.js';
import { iteration, makeState, testRecord } from '../state/make-state.js';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** What pytest's output said: these tests failing, three passing. */
const pytest = (ids: string[]): NonNullable<TestRecord['parsed']> => ({
  runners: ['pytest'],
  failing: ids.map((id) => ({ runner: 'pytest', scope: 'test', id, name: id, package: null, file: null, line: null })),
  counts: [{ runner: 'pytest', passed: 3, failed: ids.length }],
});

function passingRun() {
  const rejected = iteration(1, 'rejected', {
    patch: 'a',
    reason: 'error: patch failed: calc.py:3\nerror: calc.py: patch does not apply',
  });
  const applied = iteration(2, 'applied', {
    patch: 'b',
    test: testRecord(0, { stdout_tail: '...\n1 passed in 0.01s\n' }),
  });
  applied.phases.test = { status: 'done', started_at: applied.started_at, duration_ms: 1200 };
  return makeState({
    status: 'stable',
    reason: 'tests_pass',
    reason_detail: 'tests pass after iteration 2',
    branch: { name: 'EngineerExternal/20261122T140501Z', commit: '9'.repeat(40) },
    iterations: [rejected, applied],
  });
}

describe('renderPrSummary', () => {
  it('shows branch, directive, iterations, commits, final test, risk, files and rejected patches', () => {
    const md = renderPrSummary(passingRun());
    expect(md.split('\n')[0]).toBe('# Fix the add function in calc.py so tests pass');
    expect(md).toContain('**Risk: pass** - the tests pass after 1 applied patch\n');
    expect(md).toContain('| Branch | `EngineerExternal/20261122T140501Z` at `999999999999` |');
    expect(md).toContain('| Base | `main` at `bbbbbbbbbbbb` |');
    expect(md).toContain('## Directive\n\n> Fix the add function in calc.py so tests pass.');
    expect(md).not.toContain('DIRECTIVE.md');
    expect(md).toContain('| # | Outcome | Applied by | Files | Tests | Model | Test run | Total | Summary |');
    expect(md).toContain('| 1 | rejected | - | 1 | - | 5.0 s | - | 5.0 s | rejected |');
    expect(md).toContain('| 2 | applied | - | 1 | exit 0 | 5.0 s | 1.2 s | 6.2 s | update calc.py |');
    expect(md).toContain('\n\n- `222222222222` iteration 2: update calc.py');
    expect(md).toContain(
      '## Final test run\n\nPassed: `python3 -m pytest -q` (exit 0, 1.2 s)\n\n<details><summary>Output</summary>\n\n```text\n...\n1 passed in 0.01s\n```\n\n</details>',
    );
    expect(md).toContain('## Changes\n\n- `calc.py` (modified)');
    expect(md).toContain(
      '## Rejected patches\n\n- Iteration 1: not applied: error: patch failed: calc.py:3 error: calc.py: patch does not apply (`iter-01.patch`)',
    );
    expect(md.endsWith('\n')).toBe(true);
  });

  it('names the runtime the sandbox ran with, gVisor or the shared host kernel', () => {
    const run = (config: Record<string, unknown>) => renderPrSummary(makeState({ config }));
    expect(run({ sandbox: { runtime: 'runsc' } })).toContain('| Sandbox runtime | gVisor (`runsc`) |');
    expect(run({ sandbox: { runtime: '' } })).toContain(
      "| Sandbox runtime | the engine's default (the sandbox shares the host kernel) |",
    );
    expect(run({ sandbox: { runtime: 'kata' } })).toContain('| Sandbox runtime | `kata` |');
    expect(run({})).toContain('| Sandbox runtime | not recorded |');
  });

  it('records the toolchain version, what chose it, and the package manager', () => {
    const state = makeState({});
    if (!state.image) throw new Error('makeState gives an image');
    const base = state.image;
    const image = {
      ...base,
      toolchain_version: {
        toolchain: 'node',
        version: '22.23.3',
        origin: 'npm registry',
        source: 'declared' as const,
        declared: '.nvmrc: 22',
        package_manager: 'pnpm 10 (pnpm-lock.yaml (lockfileVersion 9.0))',
      },
    };
    const md = renderPrSummary({ ...state, image });
    expect(md).toContain('| Toolchain | node `22.23.3` from npm registry (.nvmrc: 22) |');
    expect(md).toContain('| Package manager | pnpm 10 (pnpm-lock.yaml (lockfileVersion 9.0)) |');
    const byDefault = renderPrSummary({
      ...state,
      image: {
        ...base,
        toolchain_version: { toolchain: 'go', version: '1.24', origin: 'Debian 13', source: 'default' },
      },
    });
    expect(byDefault).toContain('| Toolchain | go `1.24` from Debian 13 (nothing declared: the default) |');
    expect(byDefault).not.toContain('Package manager');
  });

  it('says which rung of the apply ladder applied each patch, and names the rewritten patch', () => {
    const state = passingRun();
    const applied = state.iterations[1]!;
    applied.patch = { ...applied.patch!, rung: 'relocated', applied_artifact: 'iter-02.applied.patch' };
    const md = renderPrSummary(state);
    expect(md).toContain('| 2 | applied | 4 relocated | 1 |');
    expect(md).toContain("Applied by: the apply ladder's rung (1 as_is");
    expect(md).toContain(
      'iteration 2: update calc.py [rung 4: hunks relocated by their context, applied patch `iter-02.applied.patch`]',
    );
    applied.patch = { ...applied.patch, rung: 'as_is' };
    delete applied.patch.applied_artifact;
    const plain = renderPrSummary(state);
    expect(plain).toContain('| 2 | applied | 1 as_is | 1 |');
    expect(plain).not.toContain('Applied by: the apply');
    expect(plain).toContain('iteration 2: update calc.py\n');
  });

  it('a state an older hammer-box ended stable (baseline_failures_remain) with a targeted test still failing is partial', () => {
    // the directive names the file; of its two failing tests, one passes after the patch
    const state = makeState({
      status: 'stable',
      reason: 'baseline_failures_remain',
      reason_detail:
        'the tests this change fixed pass after iteration 1; 1 test that failed at baseline still fails the same way',
      directive: { path: 'd.md', text: 'Make all tests in test_calc.py pass.', sha256: 'a'.repeat(64) },
      baseline: testRecord(1, { parsed: pytest(['test_calc.py::test_total', 'test_calc.py::test_mean']) }),
      branch: { name: 'EngineerExternal/20261122T140501Z', commit: '9'.repeat(40) },
      iterations: [
        iteration(1, 'applied', { patch: 'a', test: testRecord(1, { parsed: pytest(['test_calc.py::test_mean']) }) }),
      ],
    });
    expect(assessRisk(state)).toEqual({
      level: 'partial',
      reason:
        '1 of the 2 targeted tests (in the test files the directive names) passes now; 1 still fails: test_calc.py::test_mean',
    });
    const md = renderPrSummary(state);
    expect(md.split('\n')[0]).toBe('# WIP: Make all tests in test_calc.py pass');
    expect(md).toContain('| Status | partial (baseline_failures_remain) |');
    expect(md).toContain('**Tests: some targeted tests pass now, others still fail**');
    // the tests the directive names all pass, and a failure outside them is left: that is stable
    const outside = makeState({
      ...state,
      directive: { path: 'd.md', text: 'Make test_total pass.', sha256: 'a'.repeat(64) },
    });
    expect(assessRisk(outside)).toEqual({
      level: 'pass',
      reason:
        'every targeted test (named in the directive) passes after 1 applied patch; 1 test outside them failed the same way at baseline and still does',
    });
  });

  it('rates each outcome: partial, untested, unknown, fail', () => {
    const partial = makeState({
      status: 'failed',
      reason: 'max_iterations',
      reason_detail: '2 of 2 iterations without passing tests',
      baseline: testRecord(1, { parsed: pytest(['test_calc.py::test_total', 'test_calc.py::test_mean']) }),
      iterations: [
        iteration(1, 'applied', { patch: 'a', test: testRecord(1, { parsed: pytest(['test_calc.py::test_mean']) }) }),
        iteration(2, 'unusable', { reason: 'the answer was empty' }),
      ],
    });
    expect(assessRisk(partial)).toEqual({
      level: 'partial',
      reason:
        '1 of the 2 targeted tests (every test that failed at baseline) passes now; 1 still fails: test_calc.py::test_mean',
    });
    const untested = makeState({
      status: 'untested',
      reason: 'no_tests',
      baseline: testRecord(5, { parsed: { ...pytest([]), no_tests: true } }),
      iterations: [
        iteration(1, 'applied', { patch: 'a', test: testRecord(5, { parsed: { ...pytest([]), no_tests: true } }) }),
      ],
    });
    expect(assessRisk(untested).level).toBe('untested');
    expect(renderPrSummary(untested)).toContain('**Tests: no tests to run**');
    expect(renderPrSummary(untested)).toContain('Found no test to run: `python3 -m pytest -q`');
    const unknown = makeState({
      status: 'unknown',
      reason: 'max_iterations',
      iterations: [
        iteration(1, 'applied', { patch: 'a', test: testRecord(124, { timed_out: true, duration_ms: 300_000 }) }),
      ],
    });
    expect(assessRisk(unknown)).toEqual({
      level: 'unknown',
      reason: 'the last test run timed out after 300 s: its result is unknown',
    });
    const nothingFixed = makeState({
      status: 'failed',
      reason: 'max_iterations',
      iterations: [iteration(1, 'applied', { patch: 'a', test: testRecord(1) })],
    });
    expect(assessRisk(nothingFixed)).toEqual({ level: 'fail', reason: 'the tests fail (exit 1)' });
    const md = renderPrSummary(partial);
    expect(md).toContain('**Risk: partial**');
    expect(md).toContain('Failed: `python3 -m pytest -q` (exit 1');
    expect(md).toContain('- Iteration 2: unusable answer: the answer was empty (`iter-02-answer.md`)');

    const fail = makeState({
      status: 'failed',
      reason: 'duplicate_patch',
      iterations: [iteration(1, 'rejected', { patch: 'a' }), iteration(2, 'duplicate', { patch: 'a' })],
    });
    expect(assessRisk(fail).level).toBe('fail');
    expect(renderPrSummary(fail)).toContain('- Iteration 2: repeated an earlier patch');
    expect(renderPrSummary(fail)).toContain('## Changes\n\nNone: no patch was applied.');

    const error = makeState({
      status: 'error',
      reason: 'error',
      errors: [
        { at: '2026-11-22T14:05:01.000Z', code: 'MODEL_UNREACHABLE', message: 'connection refused', phase: 'generate' },
      ],
    });
    expect(assessRisk(error)).toMatchObject({
      level: 'fail',
      reason: 'stopped on an error: MODEL_UNREACHABLE: connection refused',
    });
    expect(renderPrSummary(error)).toContain('## Errors\n\n- `MODEL_UNREACHABLE` in generate: connection refused');
  });

  it('rates tests that already passed at baseline as pass with no changes', () => {
    const s = makeState({
      status: 'stable',
      reason: 'tests_pass_baseline',
      baseline: testRecord(0),
      iterations: [iteration(1, 'no_changes')],
    });
    expect(assessRisk(s).level).toBe('pass');
    expect(assessRisk(s).reason).toMatch(/without changes/);
    expect(renderPrSummary(s)).toContain('## Changes\n\nNone: no patch was applied.');
  });

  it('contains no escape sequence or control character, and test output cannot break out of its fence', () => {
    const evil = '\u001b]0;owned\u0007\u001b[2J```\n# Injected heading\n````\u0000\u0008\r';
    const it1 = iteration(1, 'rejected', { patch: 'a', reason: evil });
    const it2 = iteration(2, 'applied', {
      patch: 'b',
      test: testRecord(1, { stdout_tail: evil, stderr_tail: evil, command: `pytest ${evil}` }),
    });
    it2.summary = evil;
    it2.patch!.files = [{ path: `x${evil}.py`, status: 'modified' }];
    const s = makeState({
      status: 'failed',
      reason: 'max_iterations',
      reason_detail: evil,
      directive: { path: `d${evil}`, text: evil, sha256: 'd'.repeat(64) },
      branch: { name: `b${evil}`, commit: evil },
      model: { provider: evil, name: evil, url: 'http://x' },
      iterations: [it1, it2],
      errors: [{ at: '2026-11-22T14:05:01.000Z', code: 'X', message: evil }],
    });
    const md = renderPrSummary(s);
    expect(md).not.toMatch(CONTROL);
    expect(md).not.toContain('\u001b');
    // The fenced output block opens with a fence longer than anything inside it.
    const final = md.slice(md.indexOf('## Final test run'));
    const open = /\n(`{3,})text\n/.exec(final);
    expect(open).not.toBeNull();
    expect(open![1]!.length).toBeGreaterThan(4);
    // Injected headings only ever appear inside that fence or in quoted/one-line contexts.
    const outsideFence = md.replace(/\n(`{5,})text\n[\s\S]*?\n\1/g, '');
    expect(outsideFence).not.toMatch(/^# Injected heading/m);
  });
});

describe('PR_SUMMARY.md as a pull request body', () => {
  function delivered() {
    const state = passingRun();
    state.branch = {
      ...state.branch!,
      diffstat: [
        { path: 'calc.py', added: 3, removed: 1 },
        { path: 'new_name.py', from: 'old_name.py', added: 0, removed: 0 },
        { path: 'logo.png', added: null, removed: null },
      ],
    };
    state.image = {
      ref: 'hammer-box/python:0123456789ab',
      id: `sha256:${'e'.repeat(64)}`,
      toolchain: { ref: 'hammer-box/python:0123456789ab', id: `sha256:${'e'.repeat(64)}` },
      env: null,
    };
    return state;
  }

  it('says what changed: title, the tests before and after, and a diffstat', () => {
    const md = renderPrSummary(delivered());
    expect(md.split('\n')[0]).toBe('# Fix the add function in calc.py so tests pass');
    expect(md).toContain(
      '**Tests: failing before, passing now** (`python3 -m pytest -q`): failed at baseline (exit 1, 1.2 s), pass after the last patch (exit 0, 1.2 s).',
    );
    expect(md).toContain(
      '## Changes\n\n```text\n calc.py                    | 4 +++-\n old_name.py => new_name.py | 0 \n logo.png                   | Bin\n 3 files changed, 3 insertions(+), 1 deletion(-)\n```',
    );
  });

  it("quotes the model's explanation as inert text: no markup, no mention, no issue reference", () => {
    const md = renderPrSummary(delivered(), {
      explanation: 'Fixed the sign in `total`, thanks @alice; closes #12.\n# not a heading <img src=x>',
    });
    expect(md).toContain(
      "The model's explanation:\n\n> Fixed the sign in \\`total\\`, thanks `@alice`; closes `#12`.\n> \\# not a heading \\<img src=x\\>",
    );
  });

  it('keeps hostile file names inert everywhere they appear: no HTML, link, mention or closing keyword', () => {
    const names = ['<img src=x onerror=alert(1)>.py', '[x](https://evil.example/x).py', '@octocat.py', 'closes #1.py'];
    const files = names.map((path) => ({ path, status: 'modified' as const }));
    const applied = iteration(1, 'applied', { patch: 'a', test: testRecord(0) });
    applied.patch = { ...applied.patch!, files };
    applied.summary = `${summarizePatch(files)}; tests pass`;
    applied.review = names.map((n) => `${n}: matches the sensitive path "**"`);
    const rejected = iteration(2, 'rejected', {
      patch: 'b',
      reason: `error: ${names.join(' ')}: patch does not apply`,
    });
    rejected.summary = `patch rejected: error: ${names[0]}`;
    const state = makeState({ status: 'stable', reason: 'tests_pass', iterations: [applied, rejected] });
    const md = renderPrSummary(state);
    // outside code spans and fences, nothing live survives
    const outside = md
      .replace(/```[\s\S]*?```/g, '')
      .replace(/(`+)[\s\S]*?\1/g, '')
      .replace(/<\/?(details|summary|sub)>/g, '');
    expect(outside).not.toMatch(/(?<!\\)\]\(|https?:\/\/|@octocat|#1\b/);
    expect(outside).not.toMatch(/(?<!\\)[<[\]]|[^\\\n]>/);
    // and each name is still shown, in a code span or escaped
    expect(md).toContain('`<img src=x onerror=alert(1)>.py` (modified)');
    expect(md).toContain('`@octocat.py` (modified)');
    expect(md).toContain('update 4 files: %3Cimg%20src%3Dx%20onerror');
  });

  it('has no local path, no runner line and no image twice', () => {
    const state = delivered();
    state.status = 'failed';
    state.reason = 'max_iterations';
    state.reason_detail = `see ${state.artifacts_dir}/iter-02.patch in ${state.repo.path}`;
    state.errors = [{ at: state.created_at, code: 'X', message: 'cannot read /home/u/.config/hammer.toml' }];
    const last = state.iterations.at(-1)!;
    last.test = testRecord(1, { stderr_tail: 'hammer-runner: check 1\nE   assert 1 == 3\n' });
    const md = renderPrSummary(state);
    expect(md).not.toContain('/home/u');
    // escaped as inert text: `\<repo\>` and `\~` render as <repo> and ~
    expect(md).toContain(`see \\<repo\\>/.hammer/runs/${state.run_id}/iter-02.patch in \\<repo\\>`);
    expect(md).toContain('cannot read \\~/.config/hammer.toml');
    expect(md).not.toContain('hammer-runner');
    expect(md).toContain('E   assert 1 == 3');
    expect(md.match(/hammer-box\/python:0123456789ab/g)).toHaveLength(1);
    expect(md).toContain('| Image | `hammer-box/python:0123456789ab` (`eeeeeeeeeeee`), the toolchain image |');
    expect(md).toContain('| Env image | none (nothing to install) |');
  });
});

describe('renderRunLine', () => {
  it('is one sanitised line with id, status, reason, iterations, branch and directive', () => {
    const line = renderRunLine(passingRun());
    expect(line).toBe(
      '20261122T140501Z-abcdef  stable       tests_pass            2 it  EngineerExternal/20261122T140501Z  Fix the add function in calc.py so tests pass.',
    );
    const evil = renderRunLine(
      makeState({ directive: { path: 'd', text: '\n\n\u001b[31mred\nsecond line', sha256: 'd'.repeat(64) } }),
    );
    expect(evil).toBe('20261122T140501Z-abcdef  running      -                     0 it  -  red');
  });
});
