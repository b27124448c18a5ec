import { describe, expect, it } from 'vitest';
import { resolveImport } from '../../../src/context/imports/index.js';
import { readFacts } from '../../../src/context/manifests.js';
import { indexTree } from '../../../src/context/tree-index.js';
import type { ImportRef, LanguageId } from '../../../src/syntax/index.js';
import { treeOf } from './support.js';

const FILES: Record<string, string> = {
  // python: flat, package, src layout, relative, monorepo subproject
  'calc.py': '',
  'tests/test_calc.py': '',
  'mathx/__init__.py': '',
  'mathx/ops.py': '',
  'src/shop/__init__.py': '',
  'src/shop/cart.py': '',
  'src/geo/__init__.py': '',
  'src/geo/shapes.py': '',
  'services/billing/src/billing/tax.py': '',
  'services/billing/tests/test_tax.py': '',
  // js/ts
  'src/clamp.js': '',
  'src/money.ts': '',
  'src/utils/index.js': '',
  'src/utils/chunk.js': '',
  'lib/slug.js': '',
  'test/a.test.js': '',
  'packages/core/package.json': '',
  'packages/core/src/index.js': '',
  'packages/core/src/format.js': '',
  'packages/app/test/app.test.js': '',
  'library/package.json': '{ "name": "valikit", "exports": "./dist/index.js" }',
  'library/src/index.ts': '',
  'web/src/lib/money.ts': '',
  'web/src/components/Button/index.tsx': '',
  'web/src/a/shared.ts': '',
  'lib/a/shared.ts': '',
  'node_modules/left-pad/package.json': '',
  'node_modules/left-pad/index.js': '',
  // go
  'go.mod': 'module example.com/m\n',
  'internal/num/round.go': '',
  'internal/num/round_test.go': '',
  'report/total.go': '',
  // rust
  'Cargo.toml': '[package]\nname = "temp-conv"\n',
  'src/lib.rs': '',
  'src/convert.rs': '',
  'src/geometry/mod.rs': '',
  'src/geometry/area.rs': '',
  'src/geometry/length.rs': '',
  'tests/convert.rs': '',
  'crates/core/Cargo.toml': '[package]\nname = "core-lib"\n[lib]\nname = "corelib"\n',
  'crates/core/src/lib.rs': '',
  'crates/core/src/ids.rs': '',
};
const index = indexTree(treeOf(FILES));
const facts = readFacts(
  new Map(
    ['go.mod', 'Cargo.toml', 'crates/core/Cargo.toml', 'library/package.json', 'packages/core/package.json'].map(
      (p) => [p, FILES[p]!] as [string, string],
    ),
  ),
);

function ref(kind: ImportRef['kind'], source: string, names: string[] = [], level = 0): ImportRef {
  return { kind, source, level, names, line: 1 };
}
function resolve(language: LanguageId, from: string, r: ImportRef): string[] {
  return resolveImport(r, from, language, index, facts).map((x) => x.path);
}

describe('Python imports', () => {
  it('resolves absolute imports from the importer up, packages, the src layout and subprojects', () => {
    expect(resolve('python', 'tests/test_calc.py', ref('from', 'calc', ['add']))).toEqual(['calc.py']);
    expect(resolve('python', 'tests/test_calc.py', ref('import', 'mathx.ops'))).toEqual(['mathx/ops.py']);
    expect(resolve('python', 'tests/test_calc.py', ref('from', 'mathx', ['ops']))).toEqual(['mathx/ops.py']);
    expect(resolve('python', 'tests/test_calc.py', ref('from', 'shop.cart', ['Cart']))).toEqual(['src/shop/cart.py']);
    expect(resolve('python', 'tests/test_calc.py', ref('from', 'geo', ['area']))).toEqual(['src/geo/__init__.py']);
    expect(resolve('python', 'services/billing/tests/test_tax.py', ref('from', 'billing.tax', ['with_tax']))).toEqual([
      'services/billing/src/billing/tax.py',
    ]);
  });
  it('resolves relative imports by level, and leaves the standard library alone', () => {
    expect(resolve('python', 'src/geo/__init__.py', ref('from', 'shapes', ['area'], 1))).toEqual(['src/geo/shapes.py']);
    expect(resolve('python', 'src/geo/__init__.py', ref('from', '', ['shapes'], 1))).toEqual(['src/geo/shapes.py']);
    expect(resolve('python', 'src/geo/shapes.py', ref('from', '', ['shapes'], 1))).toEqual([]);
    expect(resolve('python', 'src/shop/cart.py', ref('from', 'geo.shapes', ['area'], 2))).toEqual([
      'src/geo/shapes.py',
    ]);
    expect(resolve('python', 'calc.py', ref('import', 'os'))).toEqual([]);
  });
  it('names what a from-import takes', () => {
    expect(resolveImport(ref('from', 'calc', ['add', 'sub']), 'tests/test_calc.py', 'python', index, facts)).toEqual([
      { path: 'calc.py', names: ['add', 'sub'] },
    ]);
  });
});

describe('JavaScript and TypeScript imports', () => {
  it('resolves relative specifiers with extensions, .js for .ts, and index files', () => {
    expect(resolve('javascript', 'test/a.test.js', ref('import', '../src/clamp.js'))).toEqual(['src/clamp.js']);
    expect(resolve('javascript', 'test/a.test.js', ref('require', '../lib/slug'))).toEqual(['lib/slug.js']);
    expect(resolve('typescript', 'test/a.test.js', ref('import', '../src/money.js'))).toEqual(['src/money.ts']);
    expect(resolve('javascript', 'test/a.test.js', ref('import', '../src/utils'))).toEqual(['src/utils/index.js']);
    expect(resolve('javascript', 'src/utils/index.js', ref('export-from', './chunk.js', ['chunk']))).toEqual([
      'src/utils/chunk.js',
    ]);
  });
  it('resolves a workspace package by its directory, never node_modules', () => {
    expect(resolve('javascript', 'packages/app/test/app.test.js', ref('import', '@acme/core'))).toEqual([
      'packages/core/src/index.js',
    ]);
    expect(resolve('javascript', 'packages/app/test/app.test.js', ref('import', 'core/src/format.js'))).toEqual([
      'packages/core/src/format.js',
    ]);
    expect(resolve('javascript', 'test/a.test.js', ref('import', 'left-pad'))).toEqual([]);
    // a path alias, by the one file whose path ends so
    expect(resolve('typescript', 'web/src/app.test.ts', ref('import', '@/lib/money'))).toEqual([
      'web/src/lib/money.ts',
    ]);
    expect(resolve('typescript', 'web/src/app.test.ts', ref('import', '~/components/Button'))).toEqual([
      'web/src/components/Button/index.tsx',
    ]);
    expect(resolve('typescript', 'web/src/app.test.ts', ref('import', '@/a/shared'))).toEqual([]);
    expect(resolve('typescript', 'web/src/app.test.ts', ref('import', '@/nowhere/x'))).toEqual([]);
    // by its package.json's name, when its directory is named otherwise
    expect(resolve('typescript', 'packages/app/test/app.test.js', ref('import', 'valikit'))).toEqual([
      'library/src/index.ts',
    ]);
    expect(resolve('javascript', 'test/a.test.js', ref('import', 'node:test'))).toEqual([]);
  });
});

describe('Go imports', () => {
  it("resolves a path inside the module to the package's code files, and nothing outside", () => {
    expect(resolve('go', 'report/total.go', ref('import', 'example.com/m/internal/num'))).toEqual([
      'internal/num/round.go',
      'internal/num/round_test.go',
    ]);
    expect(resolve('go', 'report/total.go', ref('import', 'strings'))).toEqual([]);
    expect(resolve('go', 'report/total.go', ref('import', 'example.com/other/x'))).toEqual([]);
  });
});

describe('Rust imports', () => {
  it('resolves mod declarations beside or below their parent', () => {
    expect(resolve('rust', 'src/lib.rs', ref('mod', 'convert'))).toEqual(['src/convert.rs']);
    expect(resolve('rust', 'src/lib.rs', ref('mod', 'geometry'))).toEqual(['src/geometry/mod.rs']);
    expect(resolve('rust', 'src/geometry/mod.rs', ref('mod', 'area'))).toEqual(['src/geometry/area.rs']);
  });
  it('resolves crate::, self::, super:: and crate-name paths from tests/ and other members', () => {
    expect(resolve('rust', 'src/lib.rs', ref('use', 'crate::convert::celsius'))).toEqual(['src/convert.rs']);
    expect(resolve('rust', 'src/geometry/mod.rs', ref('use', 'self::area::rect'))).toEqual(['src/geometry/area.rs']);
    expect(resolve('rust', 'src/geometry/area.rs', ref('use', 'super::super::convert'))).toEqual(['src/convert.rs']);
    expect(resolve('rust', 'tests/convert.rs', ref('use', 'temp_conv::convert::celsius'))).toEqual(['src/convert.rs']);
    expect(resolve('rust', 'tests/convert.rs', ref('use', 'temp_conv::celsius'))).toEqual(['src/lib.rs']);
    expect(resolve('rust', 'tests/convert.rs', ref('use', 'corelib::ids::next_id'))).toEqual([
      'crates/core/src/ids.rs',
    ]);
    expect(resolve('rust', 'tests/convert.rs', ref('use', 'std::collections::HashMap'))).toEqual([]);
  });
  it('resolves a path relative to the current module (2018 edition)', () => {
    expect(resolve('rust', 'src/lib.rs', ref('use', 'convert::celsius'))).toEqual(['src/convert.rs']);
    expect(resolve('rust', 'src/geometry/mod.rs', ref('use', 'length::perimeter'))).toEqual(['src/geometry/length.rs']);
    expect(resolve('rust', 'src/lib.rs', ref('use', 'serde::Serialize'))).toEqual([]);
  });
});
