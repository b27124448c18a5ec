// What the failure leads to, end to end: names followed through imports past two hops, messages and
// data files to the code, definitions named like the test, and the ranking they give.
import { describe, expect, it } from 'vitest';
import { buildContext, memorySource, ParseCache, type ContextResult } from '../../../src/context/index.js';
import { BUDGET, bigPython, contextOf, treeOf } from './support.js';

const file = (r: ContextResult, path: string) => r.files.find((f) => f.path === path);
const covers = (r: ContextResult, path: string, line: number): boolean =>
  file(r, path)?.ranges.some((x) => x.start <= line && line <= x.end) ?? false;
const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

/** Unrelated files that make a repository too big to show whole. */
function filler(dir: string, ext = 'py', n = 20): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, k) => [`${dir}/m${k}.${ext}`, bigPython(40, -1, '')]));
}

const PYTEST = (test: string, line: number, name: string, error = 'AssertionError') =>
  `${test}:${line}: AssertionError\nFAILED ${test}::${name} - ${error}\n`;

describe('names followed through imports', () => {
  it('reaches the module a package re-exports from, through a test package imported as lib (three hops)', async () => {
    const wrapping = bigPython(600, 500, 'def wrap(text, width):\n    return [text[:width]]\n');
    const r = await contextOf(
      {
        ...filler('legacy'),
        'textkit/__init__.py': 'from .align import center\nfrom .wrapping import fill, wrap\n',
        'textkit/align.py': 'def center(text):\n    return text\n',
        'textkit/wrapping.py': wrapping,
        'tests/__init__.py': 'import textkit as lib\n',
        'tests/test_wrap.py':
          'from . import lib\n\n\ndef test_wrap():\n    assert lib.wrap("abc", 1) == ["a", "b", "c"]\n',
      },
      { failureOutput: PYTEST('tests/test_wrap.py', 5, 'test_wrap') },
    );
    expect(file(r, 'textkit/wrapping.py')).toMatchObject({
      reason: 'import',
      detail: 'defines wrap, called in the failing test',
      whole: false,
    });
    expect(covers(r, 'textkit/wrapping.py', lineOf(wrapping, 'return [text[:width]]'))).toBe(true);
    // the definition the failing test calls comes before the files that only pass it on
    const order = r.files.map((f) => f.path);
    expect(order.indexOf('textkit/wrapping.py')).toBeLessThan(order.indexOf('tests/__init__.py'));
    expect(file(r, 'textkit/align.py')).toBeUndefined();
  });

  it("follows a pytest test's conftest.py to the module its fixture builds", async () => {
    const r = await contextOf(
      {
        ...filler('legacy'),
        'shop/__init__.py': '',
        'shop/cart.py': 'class Cart:\n    def total(self):\n        return 0\n',
        'tests/conftest.py':
          'import pytest\n\nfrom shop.cart import Cart\n\n\n@pytest.fixture\ndef cart():\n    return Cart()\n',
        'tests/unit/test_cart.py': 'def test_total(cart):\n    assert cart.total() == 1\n',
      },
      { failureOutput: PYTEST('tests/unit/test_cart.py', 2, 'test_total') },
    );
    expect(file(r, 'tests/conftest.py')?.detail).toBe('defines cart, used in the failing test');
    expect(file(r, 'shop/cart.py')?.detail).toBe('defines total, called in the failing test');
  });

  it('follows a workspace package named unlike its directory through barrel files four deep', async () => {
    const actions = ['trim', 'check', 'email', 'url', 'value', 'regex'];
    const files: Record<string, string> = {
      ...filler('legacy', 'ts'),
      'library/package.json': '{ "name": "valikit", "exports": "./dist/index.js" }\n',
      'library/src/index.ts': "export * from './actions/index.ts';\nexport * from './types.ts';\n",
      'library/src/types.ts': 'export type Issue = { path: string };\n',
      'library/src/actions/index.ts': actions.map((a) => `export * from './${a}/index.ts';`).join('\n'),
      'packages/json/package.json': '{ "name": "@valikit/json" }\n',
      'packages/json/src/convert.test.ts':
        "import { expect, test } from 'vitest';\nimport * as v from 'valikit';\n\ntest('trims', async () => {\n  expect(await v.trimAsync(' a ')).toBe('a');\n});\n",
    };
    for (const a of actions) {
      files[`library/src/actions/${a}/index.ts`] = `export * from './${a}Async.ts';\n`;
      files[`library/src/actions/${a}/${a}Async.ts`] =
        `export async function ${a}Async(input: string): Promise<string> {\n  return input.${a === 'trim' ? 'trimStart' : 'valueOf'}();\n}\n`;
    }
    const r = await contextOf(files, {
      failureOutput:
        ' FAIL  src/convert.test.ts > trims\nAssertionError: expected 1 to be 2\n ❯ src/convert.test.ts:5:36\n',
    });
    expect(file(r, 'library/src/actions/trim/trimAsync.ts')).toMatchObject({
      detail: 'defines trimAsync, called in the failing test',
      whole: true,
    });
    expect(file(r, 'library/src/actions/email/emailAsync.ts')).toBeUndefined();
  });

  it("shows a derive macro's crate and what its function calls in another module of that crate", async () => {
    const r = await contextOf(
      {
        ...filler('legacy'),
        'Cargo.toml': '[package]\nname = "mj"\n\n[dependencies]\nmj-derive = { path = "derive" }\n',
        'src/lib.rs': 'mod de;\npub use crate::de::*;\npub use mj_derive::*;\n',
        'src/de.rs': 'pub trait DeJson: Sized {\n    fn de_json(s: &str) -> Option<Self>;\n}\n',
        'derive/Cargo.toml': '[package]\nname = "mj-derive"\n\n[lib]\nproc-macro = true\n',
        'derive/src/lib.rs':
          'mod gen;\nuse crate::gen::*;\n\n#[proc_macro_derive(DeJson, attributes(mj))]\npub fn derive_de_json(input: TokenStream) -> TokenStream {\n    derive_struct(input)\n}\n',
        'derive/src/gen.rs': 'pub fn derive_struct(input: TokenStream) -> TokenStream {\n    input\n}\n',
        'tests/json.rs':
          'use mj::DeJson;\n\n#[derive(DeJson)]\nstruct W {\n    a: i32,\n}\n\n#[test]\nfn de() {\n    let w = W::de_json("{}").unwrap();\n}\n',
      },
      { failureOutput: "thread 'de' panicked at tests/json.rs:10:33:\n" },
    );
    expect(file(r, 'derive/src/lib.rs')?.detail).toBe('defines the derive macro DeJson, derived in the failing test');
    expect(file(r, 'derive/src/gen.rs')?.detail).toBe('defines derive_struct, called by derive_de_json');
  });

  it('reaches another package of a Go module through pkg.Func, and the function named like the test deep in it', async () => {
    const parser = `package parser\n\n// Parse parses.\nfunc Parse(s string) error {\n\treturn nil\n}\n\n${Array.from({ length: 400 }, (_, i) => `func helper${i}(x int) int {\n\treturn x + ${i}\n}\n`).join('\n')}\nfunc parseInlineTable(s string) error {\n\treturn nil // the bug\n}\n`;
    const r = await contextOf(
      {
        ...filler('legacy'),
        'go.mod': 'module example.com/toml\n',
        'toml.go': 'package toml\n\nfunc Unmarshal(b []byte) error {\n\treturn nil\n}\n',
        'toml_test.go':
          'package toml_test\n\nimport (\n\t"testing"\n\n\t"example.com/toml/parser"\n)\n\nfunc TestParseInlineTableComma(t *testing.T) {\n\tif parser.Parse("a = { b = 1, }") == nil {\n\t\tt.Fatal("want an error")\n\t}\n}\n',
        'parser/parser.go': parser,
      },
      {
        failureOutput:
          '--- FAIL: TestParseInlineTableComma (0.00s)\n    toml_test.go:11: want an error\nFAIL\nFAIL\texample.com/toml\t0.01s\n',
      },
    );
    expect(file(r, 'parser/parser.go')?.detail).toBe('defines Parse, called as parser.Parse in the failing test');
    expect(covers(r, 'parser/parser.go', lineOf(parser, 'the bug'))).toBe(true);
  });
});

describe('messages and data lead to code', () => {
  const errors = bigPython(
    500,
    400,
    'def _check_day(y, m, d):\n    if d > 31:\n        raise ValueError("day is out of range")\n',
  );
  const files = {
    ...filler('legacy'),
    'dates/__init__.py': '',
    'dates/api.py': 'def parse(text):\n    return text\n',
    'dates/checks.py': errors,
    'tests/test_api.py':
      'import pytest\n\nfrom dates.api import parse\n\n\ndef test_rejects():\n    with pytest.raises(ValueError, match="day is out of range"):\n        parse("1900-02-30")\n',
  };

  it('shows the region of the code holding a message the failing test asserts, in a file nothing imports', async () => {
    const r = await contextOf(files, {
      failureOutput: PYTEST('tests/test_api.py', 8, 'test_rejects', "Failed: DID NOT RAISE <class 'ValueError'>"),
    });
    expect(file(r, 'dates/checks.py')).toMatchObject({
      reason: 'failure',
      detail: 'holds "day is out of range", asserted in the failing test',
    });
    expect(covers(r, 'dates/checks.py', lineOf(errors, 'day is out of range'))).toBe(true);
  });

  it('leaves a message many files hold alone', async () => {
    const common = Object.fromEntries(
      ['a', 'b', 'c', 'd'].map((k) => [
        `dates/more_${k}.py`,
        'def f():\n    raise ValueError("day is out of range")\n',
      ]),
    );
    const r = await contextOf(
      { ...files, ...common },
      { failureOutput: PYTEST('tests/test_api.py', 8, 'test_rejects', "Failed: DID NOT RAISE <class 'ValueError'>") },
    );
    expect(file(r, 'dates/checks.py')).toBeUndefined();
  });

  it("shows the component named after a data-driven test's data file", async () => {
    const r = await contextOf(
      {
        ...filler('legacy', 'js'),
        'components/prism-java.js': 'Prism.languages.java = { string: /"[^"]*"/ };\n',
        'components/prism-javascript.js': 'Prism.languages.javascript = {};\n',
        'tests/languages/java/string_feature.test': '"a"\n----\n[["string", "\\"a\\""]]\n',
        'tests/run.js': "const t = require('./helper.js');\nit('passes', () => t.run());\n",
        'tests/helper.js': 'exports.run = () => {};\n',
      },
      {
        failureOutput:
          "  1) Testing language 'java'\n       – should pass test case 'string_feature':\n     AssertionError: /workspace/tests/languages/java/string_feature.test differs\n      at Context.<anonymous> (tests/run.js:2:28)\n",
      },
    );
    expect(file(r, 'components/prism-java.js')).toMatchObject({
      reason: 'failure',
      detail: 'named after "java", the failing test\'s data',
    });
    expect(file(r, 'components/prism-javascript.js')).toBeUndefined();
  });
});

describe('the work is bounded', () => {
  it('reads a bounded number of files behind a barrel of hundreds, the one the name leads to first', async () => {
    const names = Array.from({ length: 400 }, (_, k) => `action${k}`);
    const files: Record<string, string> = {
      ...filler('legacy', 'ts'),
      'lib/src/index.ts': "export * from './actions/index.ts';\n",
      'lib/src/actions/index.ts': names.map((n) => `export * from './${n}/index.ts';`).join('\n'),
      'test/a.test.ts':
        "import { expect, test } from 'vitest';\nimport * as v from '../lib/src/index.ts';\n\ntest('a', () => {\n  expect(v.action321Async('x')).toBe('x');\n});\n",
    };
    for (const n of names) {
      files[`lib/src/actions/${n}/index.ts`] = `export * from './${n}Async.ts';\n`;
      files[`lib/src/actions/${n}/${n}Async.ts`] = `export function ${n}Async(s: string): string {\n  return s;\n}\n`;
    }
    const source = memorySource(new Map(Object.entries(files)));
    let reads = 0;
    const counting = {
      ...source,
      read: (e: Parameters<typeof source.read>[0]) => ((reads += e.length), source.read(e)),
    };
    const r = await buildContext(
      {
        tree: treeOf(files),
        directive: '',
        failureOutput: ' FAIL  test/a.test.ts > a\n ❯ test/a.test.ts:5:33\n',
        changed: new Map(),
        budget: BUDGET,
      },
      counting,
      new ParseCache(),
    );
    expect(file(r, 'lib/src/actions/action321/action321Async.ts')?.detail).toBe(
      'defines action321Async, called in the failing test',
    );
    expect(reads).toBeLessThan(250);
  });
});
