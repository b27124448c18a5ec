// The code to change several calls from the failing test, in a large file by another name, loaded by a
// data suite's runner, or named only by the directive of a passing baseline: end to end.
import { describe, expect, it } from 'vitest';
import type { ContextResult } from '../../../src/context/index.js';
import { bigPython, contextOf } from './support.js';

const file = (r: ContextResult, path: string) => r.files.find((f) => f.path === path);
const covers = (r: ContextResult, path: string, line: number): boolean =>
  file(r, path)?.ranges.some((x) => x.start <= line && line <= x.end) ?? false;
const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

/** Unrelated files that make a repository too big to show whole. */
function filler(dir: string, n = 20): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, k) => [`${dir}/m${k}.py`, bigPython(40, -1, '')]));
}

/** `n` Go functions, each long enough to weigh something. */
function goFiller(prefix: string, n: number, recv = ''): string {
  return Array.from(
    { length: n },
    (_, i) =>
      `// ${prefix}${i} does one thing.\nfunc ${recv}${prefix}${i}(s string) int {\n\tif len(s) > ${i} {\n\t\treturn ${i}\n\t}\n\treturn len(s) + ${i}\n}\n`,
  ).join('\n');
}

describe('the call chain from the failing test', () => {
  it("shows the method three calls below the package's function the test calls, not an outline of its file", async () => {
    const splitter = `from sqlparse import tokens as T\n\n\nclass StatementSplitter:\n    def process(self, stream):\n        for ttype, value in stream:\n            self.level += self._change_splitlevel(ttype, value)\n            yield value\n\n    def _change_splitlevel(self, ttype, value):\n        if value == 'BEGIN':\n            return 1  # the fix\n        return 0\n\n${bigPython(
      30,
      -1,
      '',
    )
      .replace(/^def /gm, '    def ')
      .replace(/^( {4})?(["\w])/gm, '        $2')}`;
    const r = await contextOf(
      {
        ...filler('legacy'),
        'sqlparse/__init__.py':
          'from sqlparse import engine\n\n\ndef split(sql):\n    stack = engine.FilterStack()\n    return [str(s) for s in stack.run(sql)]\n',
        'sqlparse/engine/__init__.py':
          'from sqlparse.engine.filter_stack import FilterStack\nfrom sqlparse.engine.statement_splitter import StatementSplitter\n',
        'sqlparse/engine/filter_stack.py':
          'from sqlparse.engine.statement_splitter import StatementSplitter\n\n\nclass FilterStack:\n    def run(self, sql):\n        stream = iter(sql.split())\n        return StatementSplitter().process(stream)\n',
        'sqlparse/engine/statement_splitter.py': splitter,
        'sqlparse/tokens.py': 'Keyword = object()\n',
        'tests/test_split.py':
          "import sqlparse\n\n\ndef test_split_transaction():\n    assert sqlparse.split('BEGIN TRANSACTION; SELECT 1;') == ['BEGIN TRANSACTION;', 'SELECT 1;']\n",
      },
      {
        failureOutput:
          'tests/test_split.py:5: AssertionError\nFAILED tests/test_split.py::test_split_transaction - AssertionError\n',
      },
    );
    const shown = file(r, 'sqlparse/engine/statement_splitter.py');
    expect(shown?.detail).toBe(
      'on the call chain from the failing test: split → FilterStack.run → StatementSplitter.process',
    );
    expect(covers(r, 'sqlparse/engine/statement_splitter.py', lineOf(splitter, 'the fix'))).toBe(true);
    expect(r.map?.files.some((f) => f.path === 'sqlparse/engine/statement_splitter.py') ?? false).toBe(false);
  });

  it("reaches the checker through a regression test's root-package call, before the repository's own testify", async () => {
    const checker = `package checker\n\nimport "example.com/expr/parser"\n\n// ParseCheck parses and checks.\nfunc ParseCheck(s string) error {\n\ttree := parser.Parse(s)\n\t_, err := new(checker).Check(tree)\n\treturn err\n}\n\ntype checker struct{}\n\nfunc (v *checker) Check(tree string) (int, error) {\n\treturn v.visit(tree), nil\n}\n\nfunc (v *checker) visit(node string) int {\n\treturn v.IdentifierNode(node)\n}\n\n${goFiller('check', 150, '(v *checker) ')}\nfunc (v *checker) IdentifierNode(node string) int {\n\treturn 0 // the fix\n}\n`;
    const require = `package require\n\n${goFiller('Assert', 120)}\n// NoError asserts err is nil.\nfunc NoError(t TestingT, err error) {\n\tif err != nil {\n\t\tt.FailNow()\n\t}\n}\n\n// TestingT is *testing.T.\ntype TestingT interface{ FailNow() }\n`;
    const r = await contextOf(
      {
        ...filler('legacy'),
        'go.mod': 'module example.com/expr\n\ngo 1.22\n',
        'expr.go': `package expr\n\nimport (\n\t"example.com/expr/checker"\n\t"example.com/expr/compiler"\n)\n\n// Compile compiles.\nfunc Compile(s string) (int, error) {\n\tif err := checker.ParseCheck(s); err != nil {\n\t\treturn 0, err\n\t}\n\treturn compiler.Compile(s), nil\n}\n`,
        'checker/checker.go': checker,
        'compiler/compiler.go': `package compiler\n\n// Compile compiles a checked tree.\nfunc Compile(s string) int {\n\treturn emit0(s)\n}\n\n${goFiller('emit', 150)}`,
        'parser/parser.go': `package parser\n\n// Parse parses.\nfunc Parse(s string) string {\n\treturn s\n}\n\n${goFiller('parse', 150)}`,
        'internal/testify/require/require.go': require,
        'test/issues/819/issue_test.go':
          'package issue_test\n\nimport (\n\t"testing"\n\n\t"example.com/expr"\n\t"example.com/expr/internal/testify/require"\n)\n\nfunc TestIssue819(t *testing.T) {\n\t_, err := expr.Compile("map(a, index)")\n\trequire.NoError(t, err)\n}\n',
      },
      {
        failureOutput:
          '--- FAIL: TestIssue819 (0.00s)\n    issue_test.go:12: \n        \tError Trace:\t/workspace/test/issues/819/issue_test.go:12\n        \tError:      \tReceived unexpected error:\n        \t            \tunknown name index (1:8)\nFAIL\nFAIL\texample.com/expr/test/issues/819\t0.004s\n',
        budget: { chars: 20_000, fileMaxBytes: 8_000, mapChars: 2_000 },
      },
    );
    expect(file(r, 'checker/checker.go')?.detail).toBe('on the call chain from the failing test: Compile → ParseCheck');
    expect(covers(r, 'checker/checker.go', lineOf(checker, 'the fix'))).toBe(true);
    const order = r.files.map((f) => f.path);
    const assertions = order.indexOf('internal/testify/require/require.go');
    expect(assertions === -1 || assertions > order.indexOf('checker/checker.go')).toBe(true);
  });

  it('shows the class the test names by another spelling and the method building it, in a 3,000-line module', async () => {
    const core = bigPython(
      700,
      400,
      'class Command:\n    def get_help_option(self, ctx):\n        names = ctx.help_option_names\n        return HelpOption(names)  # the fix\n\n\nclass HelpOption:\n    def __init__(self, decls):\n        self.decls = decls  # also the fix\n',
    );
    const r = await contextOf(
      {
        ...filler('legacy'),
        'click/__init__.py':
          'from .core import Command as Command\nfrom .decorators import help_option as help_option\n',
        'click/core.py': core,
        'click/decorators.py':
          'from .core import HelpOption\n\n\ndef help_option(*decls):\n    def decorator(f):\n        f.params = [HelpOption(decls)]\n        return f\n\n    return decorator\n',
        'tests/test_options.py':
          'import click\n\n\ndef test_eager_order():\n    @click.help_option("--assist")\n    def cli():\n        pass\n\n    assert cli.params[0].decls == ("--assist",)\n',
      },
      { failureOutput: 'tests/test_options.py:9: AssertionError\nFAILED tests/test_options.py::test_eager_order\n' },
    );
    expect(covers(r, 'click/core.py', lineOf(core, '# the fix'))).toBe(true);
    expect(covers(r, 'click/core.py', lineOf(core, 'also the fix'))).toBe(true);
  });
});

describe("a data suite's runner and a passing baseline", () => {
  it('shows the component the runner loads for a language too short to name a file by its words', async () => {
    const r = await contextOf(
      {
        ...Object.fromEntries(
          ['java', 'python', 'rust', 'c', 'cpp', 'go-module'].map((l) => [
            `components/prism-${l}.js`,
            bigPython(1, -1, ''),
          ]),
        ),
        'components/prism-go.js': 'Prism.languages.go = {\n\tnumber: /\\b0(?:b[01_]+|o[0-7_]+)i?\\b/i // the fix\n};\n',
        'tests/run.js':
          "const TestCase = require('./helper/test-case');\n\ndescribe(\"Testing language 'go'\", () => {\n  it(\"– should pass test case 'issue3412'\", () => {\n    TestCase.runTestCase('go', 'tests/languages/go/issue3412.test');\n  });\n});\n",
        'tests/helper/test-case.js':
          "const loader = require('./prism-loader');\n\nmodule.exports = {\n  runTestCase(id, file) {\n    const Prism = loader.createInstance(id);\n    throw new Error('differs');\n  },\n};\n",
        'tests/helper/prism-loader.js':
          "const fs = require('fs');\nconst path = require('path');\n\nfunction createInstance(id) {\n  return fs.readFileSync(path.join(__dirname, '../../components', 'prism-' + id + '.js'), 'utf8');\n}\n\nmodule.exports = { createInstance };\n",
        'tests/languages/go/issue3412.test': 'x := 0o755\n',
        ...filler('legacy'),
      },
      {
        failureOutput:
          "\n  Testing language 'go'\n    1) – should pass test case 'issue3412'\n\n\n  0 passing (5ms)\n  1 failing\n\n  1) Testing language 'go'\n       – should pass test case 'issue3412':\n     Error: differs\n      at Object.runTestCase (tests/helper/test-case.js:6:11)\n      at Context.<anonymous> (tests/run.js:5:14)\n",
      },
    );
    expect(file(r, 'components/prism-go.js')?.detail).toBe(
      'loaded by the test runner for "go", the failing test\'s data',
    );
    expect(file(r, 'components/prism-go-module.js')).toBeUndefined();
  });

  it('shows the lines a link of the directive names, and the function holding the code it quotes', async () => {
    const big = bigPython(
      400,
      200,
      'def round(x, sd, rm):\n    xc = x.c\n    del xc[sd:]  # quoted\n    sd -= 1\n    while xc[sd] > 9:  # the fix\n        xc[sd] = 0\n    return x\n',
    );
    const files = {
      ...filler('legacy'),
      'big.py': big,
      'big_copy.py': big,
      'test/test_round.py': 'def test_round():\n    pass\n',
    };
    const linked = await contextOf(files, {
      directive: `Rounding up loses the carry: https://github.com/o/big/blob/main/big.py#L${lineOf(big, 'the fix')}`,
    });
    expect(file(linked, 'big.py')?.detail).toBe(`line ${lineOf(big, 'the fix')} linked in the directive`);
    expect(covers(linked, 'big.py', lineOf(big, 'the fix'))).toBe(true);

    const quoted = await contextOf(
      { ...files, 'big_copy.py': 'x = 1\n' },
      {
        directive: 'Rounding up loses the carry: after `del xc[sd:]` the loop never moves to the previous digit.',
      },
    );
    expect(file(quoted, 'big.py')?.detail).toBe('holds "del xc[sd:]", quoted in the directive');
    expect(covers(quoted, 'big.py', lineOf(big, 'the fix'))).toBe(true);

    const named = await contextOf(files, { directive: 'In big.py, round loses the carry when rounding up.' });
    expect(covers(named, 'big.py', lineOf(big, 'the fix'))).toBe(true);
  });

  it("shows the changelog's newest section last, when room is left", async () => {
    const changes = `.. currentmodule:: click\n\nVersion 8.2.0\n-------------\n\nUnreleased\n\n-   Drop support for Python 3.7. :pr:\`2588\`\n\nVersion 8.1.8\n-------------\n\nReleased 2024-12-19\n\n${'-   An older change.\n'.repeat(400)}`;
    const r = await contextOf(
      { ...filler('legacy'), 'CHANGES.rst': changes, 'app/core.py': 'def run():\n    return 1\n' },
      { directive: 'Fix `run` in app/core.py.' },
    );
    const log = file(r, 'CHANGES.rst');
    expect(log).toMatchObject({ reason: 'repository', whole: false, ranges: [{ start: 1, end: 8 }] });
    expect(r.files.at(-1)?.path).toBe('CHANGES.rst');
  });
});
