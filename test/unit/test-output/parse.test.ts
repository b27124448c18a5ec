import { describe, expect, it } from 'vitest';
import { parseTestOutput, type TestFailure } from '../../../src/test-output/index.js';
import { fixture } from './fixtures.js';

/** A failure as one line: `id @ file:line [start-end]` (package first when there is one). */
function brief(f: TestFailure): string {
  const where = f.file === null ? '' : ` @ ${f.file}:${f.line ?? '?'}`;
  const block = f.block === null ? '' : ` [${f.block.start}-${f.block.end}]`;
  return `${f.package === null ? '' : `${f.package} `}${f.scope === 'test' ? '' : `(${f.scope}) `}${f.id}${where}${block}`;
}

function read(name: string): { runners: string[]; counts: string[]; failures: string[] } {
  const report = parseTestOutput(fixture(name));
  return {
    runners: report.runners,
    counts: report.counts.map((c) => `${c.runner} ${c.passed ?? '?'} passed ${c.failed ?? '?'} failed`),
    failures: report.failures.map(brief),
  };
}

const PYTEST_IDS = [
  'tests/test_calc.py::test_add',
  'tests/test_calc.py::test_add_negative',
  'tests/test_calc.py::test_add_param[1-1-2]',
  'tests/test_calc.py::test_add_param[2-5-7]',
  'tests/test_calc.py::TestStack::test_lifo',
  'tests/test_calc.py::TestStack::test_error',
  'tests/test_io.py::test_load_missing',
];

describe('pytest', () => {
  it('reads the FAILURES blocks, node ids from the short summary, and the counts (pytest 7, default)', () => {
    expect(read('pytest-7-default.txt')).toEqual({
      runners: ['pytest'],
      counts: ['pytest 5 passed 7 failed'],
      failures: [
        'tests/test_calc.py::test_add @ tests/test_calc.py:7 [10-17]',
        'tests/test_calc.py::test_add_negative @ tests/test_calc.py:11 [18-25]',
        'tests/test_calc.py::test_add_param[1-1-2] @ tests/test_calc.py:25 [26-36]',
        'tests/test_calc.py::test_add_param[2-5-7] @ tests/test_calc.py:25 [37-47]',
        'tests/test_calc.py::TestStack::test_lifo @ tests/test_calc.py:38 [48-61]',
        'tests/test_calc.py::TestStack::test_error @ tests/test_calc.py:42 [62-79]',
        'tests/test_io.py::test_load_missing @ tests/test_io.py:10 [80-96]',
      ],
    });
  });

  it('reads -q and --tb=short output the same way (pytest 9)', () => {
    for (const name of ['pytest-9-q.txt', 'pytest-9-q-tb-short.txt', 'pytest-9-default.txt', 'pytest-7-q.txt']) {
      const r = read(name);
      expect(r.runners, name).toEqual(['pytest']);
      expect(r.counts, name).toEqual(['pytest 5 passed 7 failed']);
      expect(
        r.failures.map((f) => f.split(' @ ')[0]),
        name,
      ).toEqual(PYTEST_IDS);
    }
    expect(read('pytest-9-q-tb-short.txt').failures[4]).toBe(
      'tests/test_calc.py::TestStack::test_lifo @ tests/test_calc.py:38 [23-28]',
    );
  });

  it('takes ids from the summary when --tb=line leaves no named blocks, and keeps the section whole', () => {
    const report = parseTestOutput(fixture('pytest-9-v-tb-line.txt'));
    expect(report.failures.map((f) => f.id)).toEqual(PYTEST_IDS);
    expect(report.failures.every((f) => f.block === null)).toBe(true);
    expect(report.summaries).toContainEqual({ start: 23, end: 43 });
  });

  it('reads a module that does not import as a failing file, and a fixture error as its test', () => {
    expect(read('pytest-7-collect-error.txt')).toEqual({
      runners: ['pytest'],
      counts: ['pytest 0 passed 1 failed'],
      failures: ['(file) tests/test_broken.py @ tests/test_broken.py:1 [7-15]'],
    });
    expect(read('pytest-7-setup-error-rA.txt')).toEqual({
      runners: ['pytest'],
      counts: ['pytest 1 passed 1 failed'],
      failures: ['tests/test_fixture.py::test_sum @ tests/test_fixture.py:8 [3-10]'],
    });
  });

  it('reads a run stopped by -x', () => {
    expect(read('pytest-9-rA-x.txt').failures).toEqual(['tests/test_calc.py::test_add @ tests/test_calc.py:7 [11-18]']);
  });

  it('derives node ids from the blocks when the summary is missing', () => {
    const text = fixture('pytest-7-default.txt').split('\n').slice(0, 96).join('\n');
    const report = parseTestOutput(text);
    expect(report.failures.map((f) => f.id)).toEqual(PYTEST_IDS);
    expect(report.counts).toEqual([]);
  });
});

describe('unittest', () => {
  it('reads FAIL and ERROR blocks with dotted ids, subtests, the test frame, and the failure count', () => {
    const expected = [
      'tests.test_calc_ut.StackTest.test_error @ /workspace/tests/test_calc_ut.py:27 [10-19]',
      'tests.test_calc_ut.AddTest.test_add @ /workspace/tests/test_calc_ut.py:8 [21-27]',
      'tests.test_calc_ut.AddTest.test_add_many @ /workspace/tests/test_calc_ut.py:16 [29-35]',
      'tests.test_calc_ut.AddTest.test_add_many @ /workspace/tests/test_calc_ut.py:16 [37-43]',
      'tests.test_calc_ut.StackTest.test_lifo @ /workspace/tests/test_calc_ut.py:24 [45-51]',
    ];
    expect(read('unittest-py3.11-v.txt')).toEqual({
      runners: ['unittest'],
      counts: ['unittest ? passed 5 failed'],
      failures: expected,
    });
    const names = parseTestOutput(fixture('unittest-py3.11.txt')).failures.map((f) => f.name);
    expect(names).toEqual([
      'test_error',
      'test_add',
      'test_add_many (a=1, b=1)',
      'test_add_many (a=2, b=5)',
      'test_lifo',
    ]);
  });

  it('reads the class-only form of Python before 3.11, and OK with its count', () => {
    const text = [
      '.F',
      '======================================================================',
      'FAIL: test_add (tests.test_calc.AddTest)',
      '----------------------------------------------------------------------',
      'Traceback (most recent call last):',
      '  File "/workspace/tests/test_calc.py", line 8, in test_add',
      '    self.assertEqual(add(2, 3), 5)',
      'AssertionError: -1 != 5',
      '',
      '----------------------------------------------------------------------',
      'Ran 2 tests in 0.001s',
      '',
      'FAILED (failures=1)',
    ].join('\n');
    expect(parseTestOutput(text).failures.map((f) => f.id)).toEqual(['tests.test_calc.AddTest.test_add']);
    const ok = parseTestOutput(
      '....\n----------------------------------------------------------------------\nRan 4 tests in 0.002s\n\nOK (skipped=1)\n',
    );
    expect(ok.counts).toEqual([{ runner: 'unittest', passed: 3, failed: 0 }]);
  });
});

describe("node's test runner", () => {
  const NODE = [
    'lowers values above the range',
    'parseRange reads both ends',
    'parseRange rejects garbage',
    'table row 17',
  ];

  it('reads TAP: leaf tests only (not the suites that failed through them), location, YAML block, counts', () => {
    expect(read('node-20-tap.txt')).toEqual({
      runners: ['node'],
      counts: ['node 34 passed 4 failed'],
      failures: [
        'lowers values above the range @ /tmp/fnd-cap/node/test/clamp.test.js:12 [13-37]',
        'parseRange reads both ends @ /tmp/fnd-cap/node/test/clamp.test.js:25 [70-102]',
        'parseRange rejects garbage @ /tmp/fnd-cap/node/test/clamp.test.js:29 [103-121]',
        'table row 17 @ /tmp/fnd-cap/node/test/many.test.js:5 [232-252]',
      ],
    });
    const nested = parseTestOutput(fixture('node-20-tap.txt')).failures[0];
    expect(nested?.name).toBe('clamp > lowers values above the range');
  });

  it("reads node 18's TAP (file:// locations)", () => {
    const r = parseTestOutput(fixture('node-18-tap.txt'));
    expect(r.failures.map((f) => `${f.id} @ ${f.file}:${f.line}`)).toEqual([
      'lowers values above the range @ /workspace/test/clamp.test.js:12',
      'parseRange reads both ends @ /workspace/test/clamp.test.js:25',
      'parseRange rejects garbage @ /workspace/test/clamp.test.js:29',
      'table row 17 @ /workspace/test/many.test.js:5',
    ]);
  });

  it('finds `not ok 8` at line 108 of 463', () => {
    expect(read('node-20-tap-long.txt')).toEqual({
      runners: ['node'],
      counts: ['node 69 passed 1 failed'],
      failures: ['parses row 8 @ /tmp/fnd-cap/node-long/test/rows.test.js:7 [107-144]'],
    });
  });

  it('reads the spec reporter from its failing-tests section (with `test at` locations), and the dot reporter', () => {
    expect(read('node-20-spec.txt')).toEqual({
      runners: ['node'],
      counts: ['node 34 passed 4 failed'],
      failures: [
        'lowers values above the range @ test/clamp.test.js:12 [149-167]',
        'parseRange reads both ends @ test/clamp.test.js:25 [169-191]',
        'parseRange rejects garbage @ test/clamp.test.js:29 [193-203]',
        'table row 17 @ test/many.test.js:5 [205-220]',
      ],
    });
    expect(parseTestOutput(fixture('node-20-spec.txt')).failures[0]?.name).toBe(
      'clamp > lowers values above the range',
    );
    expect(parseTestOutput(fixture('node-20-dot.txt')).failures.map((f) => f.id)).toEqual(NODE);
  });

  it('reads the spec body when the failing-tests section is missing', () => {
    const text = fixture('node-20-spec.txt').split('\n').slice(0, 136).join('\n');
    const r = parseTestOutput(text);
    expect(r.failures.map((f) => f.id)).toEqual(NODE);
    expect(r.failures[0]?.name).toBe('clamp > lowers values above the range');
    expect(r.failures[0]?.file).toBe('/tmp/fnd-cap/node/test/clamp.test.js');
  });
});

describe('jest, vitest and mocha', () => {
  it('reads Jest blocks with full names for -t, files and lines', () => {
    const expected = {
      runners: ['jest'],
      counts: ['jest 5 passed 3 failed'],
      failures: [
        'cart discount takes ten percent off @ test/cart.test.js:15 [2-17]',
        'top-level: order of items does not matter @ test/cart.test.js:27 [19-33]',
        'money formats large amounts with separators @ test/format.test.js:10 [36-51]',
      ],
    };
    expect(read('jest-30.txt')).toEqual(expected);
    expect(read('jest-30-verbose.txt').failures.map((f) => f.split(' @ ')[0])).toEqual(
      expected.failures.map((f) => f.split(' @ ')[0]),
    );
  });

  it('reads a Jest test file that failed to run as a failing file', () => {
    const text = [
      'FAIL test/broken.test.js',
      '  ● Test suite failed to run',
      '',
      "    Cannot find module '../src/missing' from 'test/broken.test.js'",
      '',
      '      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)',
      '',
      'Test Suites: 1 failed, 1 total',
      'Tests:       0 total',
    ].join('\n');
    const r = parseTestOutput(text);
    expect(r.failures.map((f) => `${f.scope} ${f.id} [${f.block?.start}-${f.block?.end}]`)).toEqual([
      'file test/broken.test.js [2-6]',
    ]);
  });

  it('reads Vitest with and without colour, in each reporter', () => {
    const expected = [
      'cart discount takes ten percent off @ test/cart.test.ts:16 [18-33]',
      'top-level: order of items does not matter @ test/cart.test.ts:28 [37-54]',
      'money formats large amounts with separators @ test/format.test.ts:12 [58-70]',
      'money throws on NaN @ test/format.test.ts:15 [74-82]',
    ];
    expect(read('vitest-4.txt')).toEqual({
      runners: ['vitest'],
      counts: ['vitest 5 passed 4 failed'],
      failures: expected,
    });
    expect(read('vitest-4-color.txt').failures).toEqual(expected);
    for (const name of ['vitest-4-verbose.txt', 'vitest-4-dot.txt']) {
      expect(
        read(name).failures.map((f) => f.split(' @ ')[0]),
        name,
      ).toEqual(expected.map((f) => f.split(' @ ')[0]));
    }
  });

  it("reads Vitest's failed suites and, without a failure section, the verbose × lines", () => {
    const suite = [
      ' RUN  v4.1.12 /repo',
      '',
      '⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ' FAIL  test/broken.test.ts [ test/broken.test.ts ]',
      'Error: Cannot find module ../src/missing',
      ' ❯ test/broken.test.ts:1:1',
      '',
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
      '',
      ' Test Files  1 failed (1)',
      '      Tests  no tests',
    ].join('\n');
    expect(parseTestOutput(suite).failures.map((f) => `${f.scope} ${f.id} ${f.file}:${f.line}`)).toEqual([
      'file test/broken.test.ts test/broken.test.ts:1',
    ]);
    const verbose = fixture('vitest-4-verbose.txt').split('\n').slice(0, 15).join('\n');
    expect(parseTestOutput(verbose).failures.map((f) => f.id)).toEqual([
      'money formats large amounts with separators',
      'money throws on NaN',
      'cart discount takes ten percent off',
      'top-level: order of items does not matter',
    ]);
  });

  it('reads Mocha numbered blocks with nested titles as full titles for --grep', () => {
    expect(read('mocha-11.txt')).toEqual({
      runners: ['mocha'],
      counts: ['mocha 2 passed 3 failed'],
      failures: [
        'top-level: handles a missing price @ test/mocha/cart.spec.js:26 [16-25]',
        'cart discount takes ten percent off @ test/mocha/cart.spec.js:13 [27-41]',
        'cart discount keeps fractions @ test/mocha/cart.spec.js:19 [43-62]',
      ],
    });
  });

  it("reads other producers' TAP (mocha's) as generic TAP", () => {
    expect(read('mocha-11-tap.txt')).toEqual({
      runners: ['tap'],
      counts: ['tap 2 passed 3 failed'],
      failures: [
        'top-level: handles a missing price @ test/mocha/cart.spec.js:26 [1-5]',
        'cart discount takes ten percent off @ test/mocha/cart.spec.js:13 [7-17]',
        'cart discount keeps fractions @ test/mocha/cart.spec.js:19 [19-35]',
      ],
    });
  });
});

describe('go test', () => {
  it('reads leaf failures (subtests rather than their parent), the package of each, panics, and where they failed', () => {
    expect(read('go-1.19.txt')).toEqual({
      runners: ['go'],
      counts: [],
      failures: [
        'example.com/shop/stack TestPushPop @ stack_test.go:14 [1-2]',
        'example.com/shop/stack TestAbs/negative @ stack_test.go:32 [4-5]',
        'example.com/shop/stack TestAbs/min_int @ stack_test.go:32 [6-7]',
        'example.com/shop/textutil TestInitial @ /workspace/textutil/text_test.go:12 [10-28]',
      ],
    });
  });

  it('reads -v output, where the log lines follow === RUN', () => {
    expect(read('go-1.19-v.txt').failures).toEqual([
      'example.com/shop/stack TestPushPop @ stack_test.go:14 [1-2]',
      'example.com/shop/stack TestAbs/negative @ stack_test.go:32 [6-7]',
      'example.com/shop/stack TestAbs/min_int @ stack_test.go:32 [9-10]',
      'example.com/shop/textutil TestInitial @ /workspace/textutil/text_test.go:12 [23-41]',
    ]);
    expect(read('go-1.19-run-filter.txt').failures).toEqual([
      'example.com/shop/stack TestAbs/negative @ stack_test.go:32 [2-3]',
    ]);
  });

  it('reads a package that failed to build, with its compiler errors', () => {
    expect(read('go-1.19-build-failed.txt').failures).toEqual([
      'example.com/calc/calc (package) example.com/calc/calc @ calc/calc_test.go:9 [1-3]',
    ]);
  });

  it('ignores packages that passed', () => {
    const text = 'ok  \texample.com/a\t0.01s\n?   \texample.com/b\t[no test files]\nok  \texample.com/c\t(cached)\n';
    const r = parseTestOutput(text);
    expect(r.runners).toEqual(['go']);
    expect(r.failures).toEqual([]);
  });
});

describe('cargo test', () => {
  it('reads FAILED tests with their stdout blocks, panic locations and the target', () => {
    expect(read('cargo-1.95.txt')).toEqual({
      runners: ['cargo'],
      counts: ['cargo 2 passed 3 failed'],
      failures: [
        'src/lib.rs convert::tests::freezing @ src/lib.rs:16 [13-19]',
        'src/lib.rs tests::parses_spaces @ src/lib.rs:27 [21-24]',
        'src/lib.rs tests::rejects_garbage @ src/lib.rs:27 [26-32]',
      ],
    });
    expect(read('cargo-1.95-backtrace.txt').failures.map((f) => f.split(' @ ')[0])).toEqual([
      'src/lib.rs tests::parses_spaces',
      'src/lib.rs convert::tests::freezing',
      'src/lib.rs tests::rejects_garbage',
    ]);
  });

  it('reads every target of a --no-fail-fast run and sums the counts', () => {
    expect(read('cargo-1.95-no-fail-fast.txt')).toEqual({
      runners: ['cargo'],
      counts: ['cargo 2 passed 5 failed'],
      failures: [
        'src/lib.rs convert::tests::freezing @ src/lib.rs:16 [13-19]',
        'src/lib.rs tests::parses_spaces @ src/lib.rs:27 [21-24]',
        'src/lib.rs tests::rejects_garbage @ src/lib.rs:27 [26-32]',
        'tests/integration.rs body_temperature @ tests/integration.rs:6 [50-54]',
        'tests/integration.rs room_temperature @ tests/integration.rs:11 [56-61]',
      ],
    });
  });

  it('reads a crate that did not compile', () => {
    expect(read('cargo-1.95-compile-error.txt').failures).toEqual(['(package) temps @ src/lib.rs:3 [2-9]']);
  });
});

describe('no known runner (the generic forms)', () => {
  it("reads a home-made runner's count line and its failing test, whatever it exits with", () => {
    expect(read('generic-home-made-runner.txt')).toEqual({
      runners: ['generic'],
      counts: ['generic 64 passed 1 failed'],
      failures: ['plus: Test number 28 [5-7]'],
    });
  });

  it("reads a test script's uncaught traceback as its file failing, and its last OK as a pass", () => {
    expect(read('generic-python-script.txt')).toEqual({
      runners: ['generic'],
      counts: ['generic ? passed 1 failed'],
      failures: ['(file) /tmp/cap36/py/test.py @ /tmp/cap36/py/test.py:5 [2-6]'],
    });
    expect(parseTestOutput(fixture('generic-python-script.txt')).failures[0]!.kind).toBe('AssertionError');
    expect(read('generic-python-script-ok.txt')).toEqual({
      runners: ['generic'],
      counts: ['generic ? passed 0 failed'],
      failures: [],
    });
    const inSandbox = parseTestOutput(
      'Traceback (most recent call last):\n  File "/workspace/python/test.py", line 3, in <module>\n    assert x\nAssertionError\n',
    );
    expect(inSandbox.failures.map((f) => f.id)).toEqual(['python/test.py']);
  });

  it('reads the count forms of other runners and of make targets', () => {
    const counts = (text: string): string[] =>
      parseTestOutput(text).counts.map((c) => `${c.passed ?? '?'} passed ${c.failed ?? '?'} failed`);
    expect(counts('Summary: 12 passed, 1 failed\n')).toEqual(['12 passed 1 failed']);
    expect(counts('3 tests failed\n')).toEqual(['? passed 3 failed']);
    expect(counts('42 examples, 2 failures\n')).toEqual(['40 passed 2 failed']);
    expect(counts('Tests run: 5, Failures: 1, Errors: 0\n')).toEqual(['4 passed 1 failed']);
    expect(counts('passed: 7, failed: 0\n')).toEqual(['7 passed 0 failed']);
    expect(counts('All 9 tests passed!\n')).toEqual(['9 passed 0 failed']);
    expect(counts('checking...\nFAILED\n')).toEqual(['? passed 1 failed']);
    // a script of asserts that prints ok when it got to its end
    expect(counts('> calc@1.0.0 test\n> node test.js\n\nok\n')).toEqual(['? passed 0 failed']);
    // every line counting a failure counts, the largest total gives the passes
    expect(counts(' 10 of 10 tests passed\n 4 of 5 tests passed\n In total, 14 of 15 tests passed\n')).toEqual([
      '14 passed 1 failed',
    ]);
  });

  it('is not read beside a known runner, whose own summary says the same', () => {
    const r = parseTestOutput(`${fixture('pytest-9-q.txt')}\nIn total, 3 of 4 tests passed\n`);
    expect(r.runners).toEqual(['pytest']);
  });

  it('does not take a log line for a count or a failure', () => {
    expect(parseTestOutput('connecting\nattempt 2 failed, retrying\nserver listening on 8080\n').runners).toEqual([]);
  });
});

describe('any output', () => {
  it('recognises nothing in output of no known runner', () => {
    expect(parseTestOutput('')).toEqual({ runners: [], failures: [], counts: [], summaries: [] });
    expect(parseTestOutput('make: *** [test] Error 1\nsh: 1: foo: not found\n').runners).toEqual([]);
  });

  it('reads several runners in one output, in the order they ran', () => {
    const text = `${fixture('pytest-9-q.txt')}${fixture('go-1.19.txt')}`;
    const r = parseTestOutput(text);
    expect(r.runners).toEqual(['pytest', 'go']);
    expect(r.failures.filter((f) => f.runner === 'go').map((f) => f.id)).toEqual([
      'TestPushPop',
      'TestAbs/negative',
      'TestAbs/min_int',
      'TestInitial',
    ]);
    expect(r.failures.filter((f) => f.runner === 'pytest')).toHaveLength(7);
  });

  it('reads hostile output in time linear in its size (50,000 failing subtests, 1 MB lines)', () => {
    const subtests = Array.from(
      { length: 50_000 },
      (_, i) => `    --- FAIL: TestA/${'x/'.repeat(i % 50)}c${i} (0.00s)`,
    );
    expect(parseTestOutput(`${subtests.join('\n')}\nFAIL\tpkg\t0.1s\n`).failures).toHaveLength(500);
    const cargo = Array.from({ length: 50_000 }, (_, i) => `test t${i} ... FAILED`).join('\n');
    expect(parseTestOutput(`${cargo}\ntest result: FAILED. 0 passed; 50000 failed;\n`).counts).toEqual([
      { runner: 'cargo', passed: 0, failed: 50_000 },
    ]);
    const long = `FAILED ${'a.py::'.repeat(200_000)} - x\nnot ok 1 - ${'a # b '.repeat(200_000)}\n`;
    expect(parseTestOutput(long).failures.length).toBeLessThanOrEqual(2);
  });

  it('keeps at most MAX_FAILURES failures and caps names from hostile output', () => {
    const flood = Array.from(
      { length: 20_000 },
      (_, i) => `not ok ${i + 1} - ${'x'.repeat(i === 0 ? 5_000 : 10)}`,
    ).join('\n');
    const r = parseTestOutput(`TAP version 13\n${flood}\n`);
    expect(r.failures).toHaveLength(500);
    expect(r.failures[0]!.id.length).toBeLessThanOrEqual(500);
  });
});
