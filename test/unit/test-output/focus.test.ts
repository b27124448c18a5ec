import { describe, expect, it } from 'vitest';
import {
  distinctFailingTests,
  focusCommand,
  parseTestOutput,
  type FailingTest,
} from '../../../src/test-output/index.js';
import { fixture } from './fixtures.js';

const failing = (name: string): FailingTest[] => distinctFailingTests(parseTestOutput(fixture(name)).failures);

const test = (id: string, extra: Partial<FailingTest> = {}): FailingTest => ({
  runner: 'pytest',
  scope: 'test',
  id,
  name: id,
  package: null,
  file: null,
  line: null,
  ...extra,
});

describe('focusCommand, per runner, from real output', () => {
  it('pytest: the failing node ids as arguments, each one shell word', () => {
    const plan = focusCommand('python3 -m pytest -q', failing('pytest-9-q.txt'));
    expect(plan?.runner).toBe('pytest');
    expect(plan?.tests).toBe(7);
    expect(plan?.command).toBe(
      "python3 -m pytest -q tests/test_calc.py::test_add tests/test_calc.py::test_add_negative 'tests/test_calc.py::test_add_param[1-1-2]' 'tests/test_calc.py::test_add_param[2-5-7]' tests/test_calc.py::TestStack::test_lifo tests/test_calc.py::TestStack::test_error tests/test_io.py::test_load_missing",
    );
  });

  it("pytest: a flag's value is not a test selection", () => {
    expect(
      focusCommand('python3 -m pytest -q -p no:cacheprovider', failing('pytest-7-collect-error.txt'))?.command,
    ).toBe('python3 -m pytest -q -p no:cacheprovider tests/test_broken.py');
  });

  it('pytest: a file that failed to load is selected by its path', () => {
    expect(focusCommand('pytest -x', failing('pytest-7-collect-error.txt'))?.command).toBe(
      'pytest -x tests/test_broken.py',
    );
  });

  it('unittest: dotted test ids as arguments', () => {
    expect(focusCommand('python -m unittest -v', failing('unittest-py3.11-v.txt'))?.command).toBe(
      'python -m unittest -v tests.test_calc_ut.StackTest.test_error tests.test_calc_ut.AddTest.test_add tests.test_calc_ut.AddTest.test_add_many tests.test_calc_ut.StackTest.test_lifo',
    );
  });

  it("node: one --test-name-pattern per test, the name's regex characters escaped", () => {
    expect(focusCommand('node --test test/', failing('node-20-spec.txt'))?.command).toBe(
      "node --test test/ '--test-name-pattern=lowers values above the range' '--test-name-pattern=parseRange reads both ends' '--test-name-pattern=parseRange rejects garbage' '--test-name-pattern=table row 17'",
    );
    const plan = focusCommand('node --test', [test('adds (1+1)', { runner: 'node' })]);
    expect(plan?.command).toBe("node --test '--test-name-pattern=adds \\(1\\+1\\)'");
  });

  it('jest and vitest: -t with the full names', () => {
    expect(focusCommand('npx jest --ci', failing('jest-30.txt'))?.command).toBe(
      "npx jest --ci -t '(cart discount takes ten percent off|top-level: order of items does not matter|money formats large amounts with separators)'",
    );
    expect(focusCommand('CI=1 npx vitest run', failing('vitest-4.txt'))?.command).toBe(
      "CI=1 npx vitest run -t '(cart discount takes ten percent off|top-level: order of items does not matter|money formats large amounts with separators|money throws on NaN)'",
    );
  });

  it('mocha: --grep with the full names', () => {
    expect(focusCommand('mocha', failing('mocha-11.txt'))?.command).toBe(
      "mocha --grep '(top-level: handles a missing price|cart discount takes ten percent off|cart discount keeps fractions)'",
    );
  });

  it('go: -run with the top-level names before the packages (a failing subtest reruns its parent)', () => {
    expect(focusCommand('go test -count=1 ./...', failing('go-1.19.txt'))?.command).toBe(
      "go test -run '^(TestPushPop|TestAbs|TestInitial)$' -count=1 ./...",
    );
  });

  it('cargo: the test paths as libtest filters after --', () => {
    expect(focusCommand('cargo test', failing('cargo-1.95.txt'))?.command).toBe(
      'cargo test -- convert::tests::freezing tests::parses_spaces tests::rejects_garbage',
    );
    expect(focusCommand('cargo test -- --nocapture', failing('cargo-1.95.txt'))?.command).toBe(
      'cargo test -- --nocapture convert::tests::freezing tests::parses_spaces tests::rejects_garbage',
    );
  });
});

describe('focusCommand: the whole suite (null) when it cannot filter', () => {
  it('a package that did not build, a crate that did not compile', () => {
    expect(focusCommand('go test ./...', failing('go-1.19-build-failed.txt'))).toBeNull();
    expect(focusCommand('cargo test', failing('cargo-1.95-compile-error.txt'))).toBeNull();
  });

  it('no failing test named, or tests of several runners', () => {
    expect(focusCommand('python3 -m pytest -q', [])).toBeNull();
    expect(focusCommand('python3 -m pytest -q', [test('a.py::t'), test('t', { runner: 'node' })])).toBeNull();
  });

  it('a runner that cannot be filtered, or a command that is not a plain invocation of the runner', () => {
    expect(focusCommand('npx tap', [test('x', { runner: 'tap' })])).toBeNull();
    expect(focusCommand('npm test', failing('jest-30.txt'))).toBeNull();
    expect(focusCommand('make test', failing('pytest-9-q.txt'))).toBeNull();
    expect(focusCommand('python3 -m pytest -q && echo ok', failing('pytest-9-q.txt'))).toBeNull();
    expect(focusCommand('python3 -m pytest -q $ARGS', failing('pytest-9-q.txt'))).toBeNull();
    // the runner of the output is not the command's
    expect(focusCommand('npx vitest run', failing('jest-30.txt'))).toBeNull();
  });

  it('a command that already selects or filters', () => {
    expect(focusCommand('python3 -m pytest -q tests/unit', failing('pytest-9-q.txt'))).toBeNull();
    expect(focusCommand('python3 -m unittest discover -s tests', failing('unittest-py3.11-v.txt'))).toBeNull();
    expect(focusCommand('go test -run TestX ./...', failing('go-1.19.txt'))).toBeNull();
    expect(focusCommand('npx jest -t cart', failing('jest-30.txt'))).toBeNull();
    expect(focusCommand('node --test --test-name-pattern=x', failing('node-20-spec.txt'))).toBeNull();
  });

  it('an id that would read as a flag or holds a line break', () => {
    expect(focusCommand('pytest', [test('--co')])).toBeNull();
    expect(focusCommand('pytest', [test('a.py::t\nb')])).toBeNull();
  });

  it("quotes an id holding a single quote as one word (the output is the sandbox's, not trusted)", () => {
    expect(focusCommand('pytest', [test("t.py::t[it's; rm -rf /]")])?.command).toBe(
      "pytest 't.py::t[it'\\''s; rm -rf /]'",
    );
  });
});
