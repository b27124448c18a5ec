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

  it('takes paths in the workspace and data files named without a line, not code named so outside', () => {
    const out =
      'AssertionError: /workspace/tests/languages/java/x.test differs.\n    parse_test.go:45: testdata/inline_table.toml: bad\nsee src/app.py and lib/x.js, /etc/hosts.txt\n';
    expect(paths(out)).toEqual(['tests/languages/java/x.test', 'parse_test.go', 'testdata/inline_table.toml']);
  });

  it('takes the file Jest and Vitest name without a line', () => {
    expect(paths(' FAIL  src/components/Badge.test.tsx\n  ● shows the count\n')).toEqual([
      'src/components/Badge.test.tsx',
    ]);
  });
});

describe('readFailureReport: failing test names, as src/test-output reads them', () => {
  it.each([
    [
      'pytest',
      '============ FAILURES ============\n____ TestX.test_one[2] ____\n\n    def test_one():\n>       assert 1 == 2\nE       assert 1 == 2\n\ntests/test_a.py:4: AssertionError\n===== short test summary info =====\nFAILED tests/test_a.py::TestX::test_one[2] - assert 1 == 2\n===== 1 failed in 0.01s =====\n',
      'test_one',
    ],
    [
      'unittest',
      '======================================================================\nFAIL: test_days (tests.test_spans.SpanTest.test_days)\n----------------------------------------------------------------------\nTraceback (most recent call last):\n  File "/workspace/tests/test_spans.py", line 5, in test_days\nAssertionError: 1 != 2\n\n----------------------------------------------------------------------\nRan 1 test in 0.001s\n\nFAILED (failures=1)\n',
      'test_days',
    ],
    [
      'go test',
      '--- FAIL: TestAbs (0.00s)\n    abs_test.go:7: Abs(-1) = -1; want 1\nFAIL\nFAIL\texample.com/m/mathx\t0.002s\nFAIL\n',
      'TestAbs',
    ],
    [
      'cargo test',
      "running 1 test\ntest stack::tests::pops ... FAILED\n\nfailures:\n\n---- stack::tests::pops stdout ----\nthread 'stack::tests::pops' panicked at src/stack.rs:9:5:\nboom\n\nfailures:\n    stack::tests::pops\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n",
      'pops',
    ],
    [
      'TAP',
      'TAP version 13\n# Subtest: clamps high values\nnot ok 3 - clamps high values\n  ---\n  duration_ms: 1.2\n  ...\n1..3\n# pass 2\n# fail 1\n',
      'clamps high values',
    ],
    [
      'node spec',
      '✖ replaces every space (1.1ms)\n  AssertionError [ERR_ASSERTION]: x\n\nℹ tests 1\nℹ pass 0\nℹ fail 1\n\n✖ failing tests:\n\ntest at test/a.test.js:3:1\n✖ replaces every space (1.1ms)\n',
      'replaces every space',
    ],
    [
      'Jest',
      'FAIL src/prices.test.js\n  prices\n    ✕ formats cents (3 ms)\n\n  ● prices › formats cents\n\n    expect(received).toBe(expected)\n\nTests:       1 failed, 1 total\n',
      'formats cents',
    ],
    [
      'Vitest',
      ' ❯ test/m.test.ts (1 test | 1 failed) 3ms\n   × toCents > rounds to the nearest cent 2ms\n\n⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯\n\n FAIL  test/m.test.ts > toCents > rounds to the nearest cent\nAssertionError: expected 1 to be 2\n\n Test Files  1 failed (1)\n      Tests  1 failed (1)\n',
      'rounds to the nearest cent',
    ],
  ])('%s', (_, out, name) => {
    expect(readFailureReport(out).testNames).toContain(name);
  });

  it('reads Go packages (a package that does not build too) and unittest ids', () => {
    const go = readFailureReport(
      '--- FAIL: TestAbs (0.00s)\n    abs_test.go:7: want 1\nFAIL\nFAIL\texample.com/m/mathx\t0.002s\n# example.com/m/broken\nbroken/b.go:3:1: syntax error\nFAIL\texample.com/m/broken [build failed]\n',
    );
    expect(go.goPackages).toEqual(expect.arrayContaining(['example.com/m/mathx', 'example.com/m/broken']));
    const py = readFailureReport(
      '======================================================================\nFAIL: test_x (pkg.tests.test_mod.T.test_x)\n----------------------------------------------------------------------\nTraceback (most recent call last):\n  File "/workspace/pkg/tests/test_mod.py", line 3, in test_x\nAssertionError\n\n----------------------------------------------------------------------\nRan 1 test in 0.001s\n\nFAILED (failures=1)\n',
    );
    expect(py.pythonModules).toEqual(['pkg.tests.test_mod.T.test_x']);
  });

  it('reads a runner src/test-output does not know by its crosses', () => {
    expect(readFailureReport('✓ adds\n✗ totals are rounded half up (2ms)\n1 of 2 failed\n').testNames).toEqual([
      'totals are rounded half up',
    ]);
  });

  it('takes the failing test file src/test-output names as a location', () => {
    const out = "not ok 1 - adds\n  ---\n  location: '/workspace/test/add.test.js:3:1'\n  ...\n1..1\n";
    expect(paths(out)).toEqual(['test/add.test.js']);
  });
});

describe('readFailureReport: titles, messages and frames', () => {
  it("keeps failing tests' full titles and the block explaining each failure", () => {
    const r = readFailureReport(
      '--- FAIL: TestLex (0.00s)\n    --- FAIL: TestLex/unterminated_raw_string (0.00s)\n        lexer_test.go:26: error = unexpected EOF\nFAIL\nFAIL\texample.com/m/lexer\t0.01s\n',
    );
    expect(r.titles).toContain('TestLex/unterminated_raw_string');
    expect(r.messages.join('\n')).toContain('error = unexpected EOF');
  });
  it('keeps the tail of output no runner recognises as its message', () => {
    const r = readFailureReport('something broke\nError: bad duration 2x\n');
    expect(r.messages).toEqual(['something broke\nError: bad duration 2x\n']);
  });
  it('reads the function names of Python, pytest, JS, Go and Rust frames, runtime frames left out', () => {
    const out = [
      'Traceback (most recent call last):',
      '  File "/workspace/tests/test_a.py", line 4, in test_add',
      '  File "/usr/lib/python3/site-packages/pkg/ops.py", line 9, in add_numbers',
      'pylint/checkers/variables.py:1499: in leave_functiondef',
      '    at Command.configureOutput (/workspace/lib/command.js:1218:5)',
      '    at Object.<anonymous> (/workspace/tests/a.test.js:3:1)',
      'example.com/m/store.(*Store).Put(...)',
      '\t/workspace/store/store.go:15',
      'example.com/m/lexer.lexRawString(0xc000010000)',
      '   3: app::parser::parse_expr',
      '   4: core::ops::function::FnOnce::call_once{{closure}}',
    ].join('\n');
    expect(readFailureReport(out).frames).toEqual([
      'test_add',
      'add_numbers',
      'leave_functiondef',
      'configureOutput',
      'Put',
      'lexRawString',
      'parse_expr',
    ]);
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
  it('reads paths of lines built to make the path patterns backtrack', () => {
    const out = Array.from({ length: 2000 }, (_, k) => `${k % 2 ? '/workspace/' : ''}${'a/'.repeat(150)}a.`).join(' ');
    expect(readFailureReport(out).locations.length).toBeLessThanOrEqual(20);
  });
  it('reads frames of lines built to make the frame patterns backtrack', () => {
    const line = (unit: string): string => unit.repeat(Math.ceil(590 / unit.length)).slice(0, 590);
    const out = Array.from({ length: 5000 }, (_, k) =>
      line(['a.', '  at a.', 'x:1: in ', '   1: a::', 'File "'][k % 5]!),
    ).join('\n');
    expect(readFailureReport(out).frames.length).toBeLessThanOrEqual(40);
  });
});
