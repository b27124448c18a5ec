import { describe, expect, it } from 'vitest';
import { buildContext, memorySource, ParseCache, type ContextResult } from '../../../src/context/index.js';
import { bigPython, BUDGET, contextOf, treeOf } from './support.js';

const shownPaths = (r: ContextResult): string[] => r.files.map((f) => f.path);
const file = (r: ContextResult, path: string) => r.files.find((f) => f.path === path);
const covers = (r: ContextResult, path: string, line: number): boolean =>
  file(r, path)?.ranges.some((x) => x.start <= line && line <= x.end) ?? false;

/** Unrelated files that make a repository too big to show whole. */
function filler(dir: string, n = 20): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, k) => [`${dir}/m${k}.py`, bigPython(40, -1, '')]));
}

const PYTEST = (test: string, line: number, name = 'test_add') =>
  `${test}:${line}: AssertionError\nFAILED ${test}::${name} - assert -1 == 5\n`;

describe('buildContext: the module the failing test imports', () => {
  it('shows the imported module (src layout) beside the failing test, each with its reason', async () => {
    const r = await contextOf(
      {
        ...filler('legacy'),
        'src/shop/__init__.py': '',
        'src/shop/cart.py': 'class Cart:\n    def total(self):\n        return 0\n',
        'tests/test_cart.py': 'from shop.cart import Cart\n\n\ndef test_total():\n    assert Cart().total() == 1\n',
      },
      { failureOutput: PYTEST('tests/test_cart.py', 5, 'test_total') },
    );
    expect(r.wholeRepository).toBe(false);
    expect(shownPaths(r)).toEqual(['tests/test_cart.py', 'src/shop/cart.py']);
    expect(file(r, 'tests/test_cart.py')).toMatchObject({ reason: 'failure', whole: true, test: true });
    expect(file(r, 'src/shop/cart.py')).toMatchObject({
      reason: 'import',
      detail: 'defines Cart and total, called in the failing test',
      whole: true,
      test: false,
    });
  });

  it('follows a re-export one hop further (a package __init__ to the defining module)', async () => {
    const r = await contextOf(
      {
        ...filler('legacy'),
        'geo/__init__.py': 'from .shapes import area\n',
        'geo/shapes.py': 'def area(r):\n    return r * 2\n',
        'tests/test_geo.py': 'from geo import area\n\n\ndef test_area():\n    assert area(2) == 4\n',
      },
      { failureOutput: PYTEST('tests/test_geo.py', 5, 'test_area') },
    );
    expect(shownPaths(r)).toEqual(expect.arrayContaining(['tests/test_geo.py', 'geo/__init__.py', 'geo/shapes.py']));
    expect(file(r, 'geo/shapes.py')?.detail).toBe('defines area, called in the failing test');
    expect(file(r, 'geo/__init__.py')?.detail).toBe('imported by tests/test_geo.py');
  });
});

describe('buildContext: regions of a big file', () => {
  const big = bigPython(1200, 1100, 'def parse_header(text):\n    return text.lower()\n');
  const faultLine = big.split('\n').indexOf('    return text.lower()') + 1;
  const files = {
    ...filler('legacy'),
    'headers.py': big,
    'tests/test_headers.py':
      'from headers import parse_header\n\n\ndef test_strip():\n    assert parse_header(" A ") == "a"\n',
  };

  it('shows the definition the failing test uses, with line and elision markers, not the head', async () => {
    const r = await contextOf(files, { failureOutput: PYTEST('tests/test_headers.py', 5, 'test_strip') });
    const f = file(r, 'headers.py')!;
    expect(f.whole).toBe(false);
    expect(covers(r, 'headers.py', faultLine)).toBe(true);
    expect(f.text).toContain(`[lines ${faultLine - 1}-${faultLine}]\ndef parse_header(text):`);
    expect(f.text).toMatch(/^\[\.\.\. lines \d+-\d+ not shown \.\.\.\]/m);
    expect(f.text.length).toBeLessThan(BUDGET.fileMaxBytes);
    expect(f.text).not.toContain('def filler_600(');
  });

  it('shows the enclosing definition of a line the traceback names', async () => {
    const r = await contextOf(files, { failureOutput: `headers.py:${faultLine}: in parse_header\n` });
    expect(covers(r, 'headers.py', faultLine)).toBe(true);
    expect(file(r, 'headers.py')?.reason).toBe('failure');
  });

  it('shows what the used definition calls in the same file (one level)', async () => {
    const src = bigPython(
      1200,
      900,
      'def _escape(s):\n    return s.replace("<", "&lt;")\n\n\n' +
        bigPython(0, -1, '') +
        'def render(s):\n    return _escape(s)\n',
    );
    const escapeLine = src.split('\n').indexOf('    return s.replace("<", "&lt;")') + 1;
    const r = await contextOf(
      {
        ...filler('legacy'),
        'markup.py': src,
        'tests/test_markup.py': 'from markup import render\n\n\ndef test_amp():\n    assert render("&") == "&amp;"\n',
      },
      { failureOutput: PYTEST('tests/test_markup.py', 5, 'test_amp') },
    );
    expect(covers(r, 'markup.py', escapeLine)).toBe(true);
  });

  it('shows the definition a directive names', async () => {
    const r = await contextOf(files, { directive: 'Fix `parse_header` in headers.py.' });
    expect(file(r, 'headers.py')).toMatchObject({ reason: 'directive', whole: false });
    expect(covers(r, 'headers.py', faultLine)).toBe(true);
  });
});

describe('buildContext: output that names no path', () => {
  const files = {
    ...filler('legacy'),
    'src/clamp.js': 'export function clamp(v, lo, hi) {\n  return v > hi ? v : v;\n}\n',
    'test/other.test.js': "import test from 'node:test';\ntest('adds', () => {});\n",
    'test/clamp.test.js':
      "import test from 'node:test';\nimport { clamp } from '../src/clamp.js';\n\ntest('clamps high values', () => {\n  clamp(15, 0, 10);\n});\n",
  };
  const tap = 'TAP version 13\nnot ok 1 - clamps high values\n  ---\n  ...\n1..1\n';

  it.each([true, false])('finds the failing test by its name (search: %s) and follows its imports', async (search) => {
    const r = await contextOf(files, { failureOutput: tap }, { search });
    expect(shownPaths(r)).toEqual(['test/clamp.test.js', 'src/clamp.js']);
    expect(file(r, 'test/clamp.test.js')?.detail).toBe('holds the failing test "clamps high values"');
  });
});

describe('buildContext: Go and Rust', () => {
  it("resolves go test's abs_test.go:7 in its package and shows the package's code", async () => {
    const r = await contextOf(
      {
        ...filler('legacy'),
        'go.mod': 'module example.com/m\n',
        'mathx/abs.go': 'package mathx\n\nfunc Abs(x int) int {\n\treturn x\n}\n',
        'mathx/sign.go': 'package mathx\n\nfunc Sign(x int) int {\n\treturn 1\n}\n',
        'mathx/abs_test.go':
          'package mathx\n\nimport "testing"\n\nfunc TestAbs(t *testing.T) {\n\tif Abs(-1) != 1 {\n\t\tt.Error("x")\n\t}\n}\n',
      },
      { failureOutput: '--- FAIL: TestAbs (0.00s)\n    abs_test.go:7: x\nFAIL\texample.com/m/mathx\t0.01s\n' },
    );
    expect(shownPaths(r)).toEqual(['mathx/abs_test.go', 'mathx/abs.go']);
    expect(file(r, 'mathx/abs.go')?.detail).toBe('defines Abs, called in the failing test');
    // the package's file the test does not use is outlined in the map instead
    expect(r.map?.files.map((f) => f.path)).toEqual(['mathx/sign.go']);
    expect(r.map?.text).toContain('func Sign(x int) int');
  });

  it('shows the src/ module a tests/ file reaches through the crate name', async () => {
    const r = await contextOf(
      {
        ...filler('legacy'),
        'Cargo.toml': '[package]\nname = "temp-conv"\n',
        'src/lib.rs': 'pub mod convert;\n',
        'src/convert.rs': 'pub fn celsius(f: f64) -> f64 {\n    f * 2.0\n}\n',
        'tests/convert.rs':
          'use temp_conv::convert::celsius;\n\n#[test]\nfn freezing() {\n    assert_eq!(celsius(32.0), 0.0);\n}\n',
      },
      { failureOutput: "thread 'freezing' panicked at tests/convert.rs:5:5:\n" },
    );
    expect(shownPaths(r)).toEqual(['tests/convert.rs', 'src/convert.rs']);
  });
});

describe('buildContext: small repositories, budgets, changes, asks', () => {
  it('shows every source file of a small repository and says so', async () => {
    const r = await contextOf(
      {
        'a.py': 'def a():\n    return 1\n',
        'b/c.py': 'X = 1\n',
        'README.md': '# hi\n',
        'tests/test_a.py': 'def test_a():\n    pass\n',
      },
      { failureOutput: PYTEST('tests/test_a.py', 2, 'test_a') },
    );
    expect(r.wholeRepository).toBe(true);
    expect(r.sourceFiles).toBe(3);
    expect(shownPaths(r).sort()).toEqual(['a.py', 'b/c.py', 'tests/test_a.py']);
    expect(file(r, 'a.py')?.reason).toBe('repository');
    expect(file(r, 'tests/test_a.py')?.reason).toBe('failure');
  });

  it('keeps shown files within the budget and outlines what does not fit', async () => {
    const mods = Object.fromEntries(
      Array.from({ length: 6 }, (_, k) => [`m${k}.py`, bigPython(30, -1, '').replace(/filler_/g, `f${k}_`)]),
    );
    const imports = Object.keys(mods)
      .map((p) => `from ${p.slice(0, -3)} import *`)
      .join('\n');
    const uses = Object.keys(mods)
      .map((_, k) => `f${k}_1(1)`)
      .join('\n    ');
    const files = { ...filler('legacy'), ...mods, 'tests/test_x.py': `${imports}\n\n\ndef test_x():\n    ${uses}\n` };
    const failureOutput = PYTEST('tests/test_x.py', 10, 'test_x');
    for (const chars of [8000, 2500]) {
      const r = await contextOf(files, { failureOutput, budget: { chars, fileMaxBytes: 4000, mapChars: 2000 } });
      const used = r.files.reduce((n, f) => n + f.text.length + 80, 0);
      expect(used).toBeLessThanOrEqual(chars);
      if (chars === 8000) expect(r.files.some((f) => !f.whole)).toBe(true);
      expect(r.map?.text.length ?? 0).toBeLessThanOrEqual(2000);
      const all = new Set([...shownPaths(r), ...(r.map?.files ?? []).map((f) => f.path)]);
      if (chars === 8000) expect(Object.keys(mods).every((p) => all.has(p))).toBe(true);
      else expect(r.map?.files.length).toBeGreaterThan(0);
    }
  });

  it('shows changed files with the regions around the changed lines, marked as changed', async () => {
    const big = bigPython(1200, -1, '');
    const r = await contextOf(
      { ...filler('legacy'), 'big.py': big },
      { changed: new Map([['big.py', [{ start: 3001, end: 3002 }]]]) },
    );
    expect(file(r, 'big.py')).toMatchObject({ reason: 'changed', changed: true, whole: false });
    expect(covers(r, 'big.py', 3001)).toBe(true);
  });

  it('keeps the rank and reason of a file once it is changed, and its definitions in focus out of the stable text', async () => {
    const files = {
      ...filler('legacy'),
      'calc.py': 'def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n',
      'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    };
    const failureOutput = PYTEST('tests/test_calc.py', 5);
    const before = await contextOf(files, { failureOutput });
    const after = await contextOf(
      { ...files, 'calc.py': files['calc.py'].replace('return a - b', 'return a + b  # now') },
      { failureOutput, changed: new Map([['calc.py', [{ start: 2, end: 2 }]]]) },
    );
    expect(after.files.map((f) => [f.path, f.reason])).toEqual(before.files.map((f) => [f.path, f.reason]));
    const calc = file(after, 'calc.py')!;
    expect(calc.changed).toBe(true);
    expect(calc.focusParts).toEqual([
      { label: 'add', start: 1, end: 2, changed: true, text: 'def add(a, b):\n    return a + b  # now' },
    ]);
    expect(file(before, 'calc.py')?.focusParts).toEqual([
      { label: 'add', start: 1, end: 2, changed: false, text: 'def add(a, b):\n    return a - b' },
    ]);
    expect(calc.stableText.startsWith('[... add: shown below, in "Code in focus" ...]\n\n\ndef sub(a, b):')).toBe(true);
    // what the prompt shows early is the same before and after the change
    expect(after.files.map((f) => f.stableText)).toEqual(before.files.map((f) => f.stableText));
  });

  it('shows what a caller asks for, as asked', async () => {
    const r = await contextOf(
      { ...filler('legacy'), 'notes/a.py': bigPython(50, -1, '') },
      {
        asked: [{ path: 'notes/a.py', ranges: [{ start: 10, end: 12 }] }],
      },
    );
    expect(file(r, 'notes/a.py')).toMatchObject({ reason: 'asked', whole: false, ranges: [{ start: 10, end: 12 }] });
  });

  it('finds the definition of a name the directive mentions when nothing else leads anywhere', async () => {
    const r = await contextOf(
      { ...filler('legacy'), 'pkg/util.py': 'def normalize_path(p):\n    return p\n' },
      {
        directive: 'normalize_path should collapse double slashes.',
      },
    );
    expect(file(r, 'pkg/util.py')).toMatchObject({ reason: 'directive', detail: 'defines normalize_path' });
  });

  it('never follows imports into vendored directories', async () => {
    const r = await contextOf(
      {
        ...filler('legacy'),
        'node_modules/dep/index.js': 'export const x = 1;\n',
        'test/a.test.js': "import { x } from '../node_modules/dep/index.js';\ntest('a', () => x);\n",
      },
      { failureOutput: '    at x (/workspace/test/a.test.js:2:1)\n' },
    );
    expect(shownPaths(r)).toEqual(['test/a.test.js']);
  });
});

describe('buildContext: the cache', () => {
  it('reads and parses an unchanged blob once per run', async () => {
    const files = {
      ...filler('legacy'),
      'calc.py': 'def add(a, b):\n    return a - b\n',
      'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    };
    const source = memorySource(new Map(Object.entries(files)));
    let reads = 0;
    const counting = {
      ...source,
      read: (e: Parameters<typeof source.read>[0]) => ((reads += e.length), source.read(e)),
    };
    const cache = new ParseCache();
    const input = {
      tree: treeOf(files),
      directive: '',
      failureOutput: PYTEST('tests/test_calc.py', 5),
      changed: new Map(),
      budget: BUDGET,
    };
    const first = await buildContext(input, counting, cache);
    const [readsAfterFirst, parsedAfterFirst] = [reads, cache.parsed];
    const second = await buildContext(input, counting, cache);
    expect(second.files).toEqual(first.files);
    expect(readsAfterFirst).toBeGreaterThan(0);
    expect(reads).toBe(readsAfterFirst);
    expect(cache.parsed).toBe(parsedAfterFirst);
  });
});
