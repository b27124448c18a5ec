// The call chain from the failing test's failing part, followed through definitions over files in memory.
import { describe, expect, it } from 'vitest';
import { chainPath, followCalls, type ChainFile } from '../../../src/context/call-chain.js';
import { callSites, isTestHelperCall } from '../../../src/context/call-sites.js';
import { lineReader } from '../../../src/context/name-uses.js';
import { analyzeSource, languageForPath } from '../../../src/syntax/index.js';

async function filesOf(texts: Record<string, string>): Promise<Map<string, ChainFile>> {
  const out = new Map<string, ChainFile>();
  for (const [path, text] of Object.entries(texts)) {
    out.set(path, { analysis: await analyzeSource(languageForPath(path)!, text), text });
  }
  return out;
}

const at = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('callSites', () => {
  it('lists the names called in a range once, with their qualifier, leaving Go assertion helpers out', async () => {
    const text =
      'func TestX(t *testing.T) {\n\tv, err := toml.Decode(s, &x)\n\trequire.NoError(t, err)\n\tcheck(v)\n\tcheck(v)\n}\n';
    const analysis = await analyzeSource('go', `package x\n\n${text}`);
    const calls = callSites(analysis, lineReader(`package x\n\n${text}`), 3, 8, true);
    expect(calls.map((c) => [c.name, c.qualifier])).toEqual([
      ['Decode', 'toml'],
      ['check', ''],
    ]);
    expect(isTestHelperCall('\trequire.NoError(t, err)', 'NoError')).toBe(true);
    expect(isTestHelperCall('\tx := build(tree, err)', 'build')).toBe(false);
  });
});

describe('followCalls', () => {
  it("follows a package's function through a re-export and a method of the class it builds, three calls down", async () => {
    const texts = {
      'tests/test_split.py':
        'import sqlparse\n\n\ndef test_split():\n    stmts = sqlparse.split("BEGIN; SELECT 1;")\n    assert len(stmts) == 2\n',
      'sqlparse/__init__.py':
        'from sqlparse import engine\n\n\ndef split(sql):\n    stack = engine.FilterStack()\n    return list(stack.run(sql))\n',
      'sqlparse/engine/__init__.py': 'from sqlparse.engine.filter_stack import FilterStack\n',
      'sqlparse/engine/filter_stack.py':
        'from sqlparse.engine.splitter import Splitter\n\n\nclass FilterStack:\n    def __init__(self):\n        self.filters = []\n\n    def run(self, sql):\n        return Splitter().process(sql)\n',
      'sqlparse/engine/splitter.py':
        'class Splitter:\n    def process(self, sql):\n        for t in sql:\n            self._level(t)\n\n    def _level(self, t):\n        return 1\n\n    def unrelated(self):\n        return 0\n',
      'sqlparse/filters.py': 'class Other:\n    def run(self, sql):\n        return sql\n',
    };
    const scopes: Record<string, string[]> = {
      'tests/test_split.py': ['sqlparse/__init__.py'],
      'sqlparse/__init__.py': ['sqlparse/engine/__init__.py'],
      'sqlparse/engine/__init__.py': ['sqlparse/engine/filter_stack.py'],
      'sqlparse/engine/filter_stack.py': ['sqlparse/engine/splitter.py'],
    };
    const { links, unread } = followCalls({
      files: await filesOf(texts),
      roots: [{ path: 'tests/test_split.py', start: 4, end: 6 }],
      scope: (p) => scopes[p] ?? [],
    });
    const byName = new Map(links.map((l) => [l.definition.qualifiedName, l]));
    expect(byName.get('split')?.depth).toBe(0);
    expect(byName.get('FilterStack.run')?.depth).toBe(1);
    expect(byName.get('Splitter.process')?.depth).toBe(2);
    expect(byName.get('Splitter._level')?.depth).toBe(3);
    expect(chainPath(byName.get('Splitter._level')!)).toBe(
      'split → FilterStack.run → Splitter.process → Splitter._level',
    );
    // the class's constructor runs when it is called; nothing else of the class, nothing of another class
    expect(byName.has('FilterStack.__init__')).toBe(true);
    expect(byName.has('Splitter.unrelated')).toBe(false);
    expect(byName.has('Other.run')).toBe(false);
    // depth first: a callee's callees come before the caller's next callee
    expect(byName.get('Splitter._level')!.order).toBe(byName.get('Splitter.process')!.order + 1);
    expect(unread).toEqual([]);
  });

  it('goes no deeper than three calls below what the test calls, and says which files in scope it lacked', async () => {
    const texts = {
      'a_test.go': 'package a\n\nfunc TestA(t *testing.T) {\n\tf0()\n}\n',
      'a.go':
        'package a\n\nfunc f0() { f1() }\n\nfunc f1() { f2() }\n\nfunc f2() { f3() }\n\nfunc f3() { f4() }\n\nfunc f4() {}\n',
    };
    const { links, unread } = followCalls({
      files: await filesOf(texts),
      roots: [{ path: 'a_test.go', start: 3, end: 5 }],
      scope: (p) => (p === 'a_test.go' ? ['a.go', 'b.go'] : ['a_test.go']),
    });
    expect(links.map((l) => [l.definition.name, l.depth])).toEqual([
      ['f0', 0],
      ['f1', 1],
      ['f2', 2],
      ['f3', 3],
    ]);
    expect(unread).toEqual(['b.go']);
  });

  it("reaches a Go package through pkg.Func and a method through its receiver, and a derive macro's function", async () => {
    const checker =
      'package checker\n\nfunc ParseCheck(s string) error {\n\t_, err := new(checker).Check(s)\n\treturn err\n}\n\ntype checker struct{}\n\nfunc (v *checker) Check(s string) (int, error) {\n\treturn v.visit(s), nil\n}\n\nfunc (v *checker) visit(s string) int {\n\treturn 0\n}\n';
    const texts = {
      'test/issues/819/issue_test.go':
        'package issue_test\n\nfunc TestIssue819(t *testing.T) {\n\t_, err := expr.Compile("1")\n\trequire.NoError(t, err)\n}\n',
      'expr.go': 'package expr\n\nfunc Compile(s string) (int, error) {\n\treturn 0, checker.ParseCheck(s)\n}\n',
      'checker/checker.go': checker,
      'internal/testify/require/require.go': 'package require\n\nfunc NoError(t T, err error) {\n\tFail(t)\n}\n',
    };
    const { links } = followCalls({
      files: await filesOf(texts),
      roots: [{ path: 'test/issues/819/issue_test.go', start: 3, end: 6 }],
      scope: (p) =>
        p.startsWith('test/')
          ? ['expr.go', 'internal/testify/require/require.go']
          : p === 'expr.go'
            ? ['checker/checker.go']
            : [],
    });
    expect(links.map((l) => [l.path, l.definition.qualifiedName, l.depth])).toEqual([
      ['expr.go', 'Compile', 0],
      ['checker/checker.go', 'ParseCheck', 1],
      ['checker/checker.go', 'checker.Check', 2],
      ['checker/checker.go', 'checker.visit', 3],
    ]);

    const rust = {
      'tests/json.rs': '#[test]\nfn de() {\n    #[derive(DeJson)]\n    struct W { a: i32 }\n}\n',
      'derive/src/lib.rs':
        'mod gen;\nuse crate::gen::*;\n\n#[proc_macro_derive(DeJson)]\npub fn derive_de_json(input: TokenStream) -> TokenStream {\n    derive_struct(input)\n}\n',
      'derive/src/gen.rs':
        'pub fn derive_struct(input: TokenStream) -> TokenStream {\n    derive_named(input)\n}\n\npub fn derive_named(input: TokenStream) -> TokenStream {\n    input\n}\n',
    };
    const derived = followCalls({
      files: await filesOf(rust),
      roots: [{ path: 'tests/json.rs', start: 1, end: 5 }],
      scope: (p) => (p === 'derive/src/lib.rs' ? ['derive/src/gen.rs'] : []),
      aliases: new Map([['DeJson', 'derive_de_json']]),
    });
    expect(derived.links.map((l) => [l.definition.name, l.depth])).toEqual([
      ['derive_de_json', 0],
      ['derive_struct', 1],
      ['derive_named', 2],
    ]);
  });

  it('follows a TypeScript barrel (index.ts re-exporting) to the function and what it calls', async () => {
    const texts = {
      'test/parse.test.ts':
        "import { parse } from '../src/index.ts';\n\ntest('parses', () => {\n  expect(parse('a')).toEqual(['a']);\n});\n",
      'src/index.ts': "export * from './parser.ts';\nexport * from './lexer.ts';\n",
      'src/parser.ts':
        "import { tokenize } from './lexer.ts';\n\nexport function parse(s: string): string[] {\n  return tokenize(s).map((t) => t.text);\n}\n",
      'src/lexer.ts':
        'export function tokenize(s: string): { text: string }[] {\n  return [...s].map((text) => ({ text }));\n}\n',
    };
    const scopes: Record<string, string[]> = {
      'test/parse.test.ts': ['src/index.ts'],
      'src/index.ts': ['src/parser.ts', 'src/lexer.ts'],
      'src/parser.ts': ['src/lexer.ts'],
    };
    const { links } = followCalls({
      files: await filesOf(texts),
      roots: [{ path: 'test/parse.test.ts', start: 3, end: 5 }],
      scope: (p) => scopes[p] ?? [],
      skip: (n) => n === 'expect' || n === 'toEqual' || n === 'test',
    });
    expect(links.map((l) => [l.path, l.definition.name, l.depth])).toEqual([
      ['src/parser.ts', 'parse', 0],
      ['src/lexer.ts', 'tokenize', 1],
    ]);
  });

  it('resolves a name defined in many files only where the caller can reach it', async () => {
    const texts = {
      'tests/test_a.py': 'from app.core import run\n\n\ndef test_a():\n    assert run() == 1\n',
      'app/core.py': 'from app.util import helper\n\n\ndef run():\n    return helper()\n',
      'app/util.py': 'def helper():\n    return 1\n',
      ...Object.fromEntries(
        Array.from({ length: 5 }, (_, k) => [
          `other/m${k}.py`,
          'def helper():\n    return 2\n\n\ndef run():\n    return 3\n',
        ]),
      ),
    };
    const { links } = followCalls({
      files: await filesOf(texts),
      roots: [{ path: 'tests/test_a.py', start: at(texts['tests/test_a.py'], 'def test_a'), end: 5 }],
      scope: (p) => (p === 'tests/test_a.py' ? ['app/core.py'] : p === 'app/core.py' ? ['app/util.py'] : []),
    });
    expect(links.map((l) => `${l.path}:${l.definition.name}`)).toEqual(['app/core.py:run', 'app/util.py:helper']);
  });
});
