import { describe, expect, it } from 'vitest';
import { readFailureReport } from '../../../src/context/index.js';

const paths = (out: string, workdir?: string): string[] => [
  ...new Set(readFailureReport(out, workdir).locations.map((l) => l.path)),
];

describe('readFailureReport: locations', () => {
  it('finds Python traceback files with their lines, the workspace prefix stripped and outside paths left out', () => {
    const out =
      'Traceback (most recent call last):\n  File "/workspace/tests/test_calc.py", line 4, in test_add\n  File "/workspace/calc.py", line 2, in add\n  File "/usr/lib/python3/dist-packages/_pytest/x.py", line 9\n';
    const r = readFailureReport(out);
    expect(r.locations.map((l) => [l.path, l.line])).toEqual([
      ['tests/test_calc.py', 4],
      ['calc.py', 2],
    ]);
  });

  it('finds pytest node ids, path:line locations, rustc arrows and JS stack frames (file:// too), in order', () => {
    const out =
      'FAILED tests/test_views.py::test_index - AssertionError\nsrc/app/views.py:12: in index\n  --> src/lib.rs:3:5\n    at main (/workspace/src/index.js:10:3)\n    at x (file:///workspace/src/esm.mjs:4:1)\n';
    expect(paths(out)).toEqual([
      'tests/test_views.py',
      'src/app/views.py',
      'src/lib.rs',
      'src/index.js',
      'src/esm.mjs',
    ]);
  });

  it("keeps go test's package-relative file and TAP's quoted location", () => {
    const out =
      "--- FAIL: TestAbs (0.00s)\n    abs_test.go:7: Abs(-1) = -1; want 1\n  location: '/workspace/test/a.test.js:3:1'\n";
    const r = readFailureReport(out);
    expect(r.locations.map((l) => [l.path, l.line])).toEqual([
      ['abs_test.go', 7],
      ['test/a.test.js', 3],
    ]);
  });

  it('leaves out paths that climb out with .., node internals, and honours another workdir', () => {
    expect(paths('File "../../etc/passwd", line 1\n../x.py:3: boom\n at node:internal/x.js:3:1')).toEqual([]);
    expect(paths('File "/src/repo/m.py", line 1', '/src/repo')).toEqual(['m.py']);
  });

  it('takes the file Jest and Vitest name without a line', () => {
    expect(paths(' FAIL  src/components/Badge.test.tsx\n  ● shows the count\n')).toEqual([
      'src/components/Badge.test.tsx',
    ]);
  });
});

describe('readFailureReport: failing test names', () => {
  it.each([
    ['pytest', 'FAILED tests/test_a.py::TestX::test_one[2] - assert 1\n', 'test_one'],
    ['pytest section', '________________ TestX.test_two ________________\n', 'test_two'],
    ['unittest', 'FAIL: test_days (tests.test_spans.SpanTest.test_days)\n', 'test_days'],
    ['go test', '--- FAIL: TestAbs (0.00s)\n', 'TestAbs'],
    ['cargo test', '---- stack::tests::pops stdout ----\n', 'pops'],
    ['cargo summary', 'test tests::greets ... FAILED\n', 'greets'],
    ['TAP', 'not ok 3 - clamps high values\n', 'clamps high values'],
    ['TAP skip', 'not ok 4 - later # TODO not yet\n', 'later'],
    ['node spec', '✖ replaces every space (1.1ms)\n', 'replaces every space'],
    ['Jest', '  ● prices › formats cents\n', 'formats cents'],
    ['Vitest', ' FAIL  test/m.test.ts > toCents > rounds to the nearest cent\n', 'rounds to the nearest cent'],
    ['Vitest ×', '   × toCents > rounds up 3ms\n', 'rounds up'],
    ['custom ✗', '✗ totals are rounded half up\n', 'totals are rounded half up'],
  ])('%s', (_, out, name) => {
    expect(readFailureReport(out).testNames).toContain(name);
  });

  it('reads Go packages and unittest ids', () => {
    const r = readFailureReport(
      'FAIL\texample.com/m/mathx\t0.002s\n# example.com/m/broken\nFAIL: test_x (pkg.tests.test_mod.T.test_x)\n',
    );
    expect(r.goPackages).toEqual(['example.com/m/mathx', 'example.com/m/broken']);
    expect(r.pythonModules).toEqual(['pkg.tests.test_mod.T.test_x']);
  });
});

describe('readFailureReport on hostile output', () => {
  // a pattern that backtracks on these takes minutes and the test times out
  it('reads huge lines built to make regular expressions backtrack', () => {
    const out = [
      `not ok 1 - ${' '.repeat(200_000)}x`,
      `${'a.'.repeat(100_000)}`,
      `___ ${'a.'.repeat(50_000)} x`,
      `  1) ${'b'.repeat(100_000)}`,
      `(${'('.repeat(100_000)}`,
    ].join('\n');
    const r = readFailureReport(out);
    expect(r.testNames).toEqual([]);
  });
});
