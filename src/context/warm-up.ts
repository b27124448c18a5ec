// A rehearsal of the prompt build over small generated repositories, one per language: run while
// the sandbox starts, it compiles the parser's WebAssembly and the context code to optimised machine
// code, which the first prompt of a process otherwise pays for (several times the build itself).
import type { LanguageId } from '../syntax/index.js';
import type { ContextInput } from './context-input.js';
import { ParseCache } from './parse-cache.js';
import { memorySource, type ContextSource } from './source.js';
import type { ContextEntry } from './types.js';

/** The build a rehearsal runs (buildContext, passed in: the warm-up never imports the builder it warms). */
export type RehearsedBuild = (
  input: ContextInput,
  source: ContextSource,
  cache: ParseCache,
) => Promise<{ files: readonly { path: string }[] }>;

/** Rehearsals per language: enough for the engine to optimise what runs hot. */
const ROUNDS = 4;
/** Definitions in each generated module (a few kilobytes: shown as regions, outlined in the map). */
const DEFINITIONS = 40;
/** A budget small enough that the rehearsal cuts regions and outlines files, as big repositories do. */
const BUDGET = { chars: 6_000, fileMaxBytes: 2_000, mapChars: 1_000 };

interface Sample {
  files: Record<string, string>;
  output: string;
}

const repeat = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i)).join('\n');

/** A module, a test importing it, and the failure it prints, in one language (`round` varies the texts). */
function sample(language: LanguageId, round: number): Sample {
  const k = round + 1;
  switch (language) {
    case 'python':
      return {
        files: {
          'warm/__init__.py': '',
          'warm/calc.py': `import os\n\n${repeat(DEFINITIONS, (i) => `def f${i}(a, b):\n    """Add ${i}."""\n    if a > b:\n        return a - b * ${k}\n    return [a + b for _ in range(2)][0]\n\n\nclass C${i}:\n    def m(self, x):\n        return f${i}(x, ${k})\n`)}`,
          'tests/test_calc.py': `from warm.calc import f1, C2\n\n\ndef test_f1():\n    assert f1(1, ${k}) == C2().m(4)\n`,
        },
        output: `tests/test_calc.py:5: in test_f1\n    assert f1(1, ${k}) == C2().m(4)\nwarm/calc.py:12: in f1\n    return a - b\nE   AssertionError\nFAILED tests/test_calc.py::test_f1 - AssertionError\n`,
      };
    case 'javascript':
    case 'typescript':
    case 'tsx': {
      const ext = language === 'javascript' ? 'js' : language === 'typescript' ? 'ts' : 'tsx';
      const t = language === 'javascript' ? '' : ': number';
      const view =
        language === 'tsx' ? (i: number) => `export const V${i} = (p: { a${t} }) => <b>{p.a}</b>;` : () => '';
      return {
        files: {
          [`src/calc.${ext}`]: `import { join } from 'node:path';\n${repeat(DEFINITIONS, (i) => `export function f${i}(a${t}, b${t})${t} {\n  if (a > b) {\n    return a - b * ${k};\n  }\n  return [a, b].reduce((x, y) => x + y, 0);\n}\nexport class C${i} {\n  m(x${t})${t} {\n    return f${i}(x, ${k});\n  }\n}\n${view(i)}`)}`,
          [`test/calc.test.${ext}`]: `import { f1, C2 } from '../src/calc.js';\nimport { test } from 'node:test';\ntest('f1 adds', () => {\n  if (f1(1, ${k}) !== new C2().m(4)) throw new Error('f1');\n});\n`,
        },
        output: `not ok 1 - f1 adds\n  ---\n  error: 'f1'\n  stack: |-\n    TestContext.<anonymous> (file:///workspace/test/calc.test.${ext}:4:45)\n    f1 (file:///workspace/src/calc.${ext}:5:5)\n  ...\n# fail 1\n`,
      };
    }
    case 'go':
      return {
        files: {
          'go.mod': 'module example.com/warm\n\ngo 1.22\n',
          'calc/calc.go': `package calc\n\nimport "fmt"\n\n${repeat(DEFINITIONS, (i) => `// F${i} adds.\nfunc F${i}(a, b int) int {\n\tif a > b {\n\t\treturn a - b*${k}\n\t}\n\treturn a + b\n}\n\ntype T${i} struct{ X int }\n\nfunc (t T${i}) M() string { return fmt.Sprint(F${i}(t.X, ${k})) }\n`)}`,
          'calc/calc_test.go': `package calc\n\nimport "testing"\n\nfunc TestF1(t *testing.T) {\n\tif F1(1, ${k}) != 4 {\n\t\tt.Fatal("F1")\n\t}\n}\n`,
        },
        output: `--- FAIL: TestF1 (0.00s)\n    calc_test.go:7: F1\nFAIL\nFAIL\texample.com/warm/calc\t0.01s\n`,
      };
    case 'rust':
      return {
        files: {
          'Cargo.toml': '[package]\nname = "warm"\nversion = "0.1.0"\nedition = "2021"\n',
          'src/lib.rs': 'pub mod calc;\n',
          'src/calc.rs': `use std::fmt;\n\n${repeat(DEFINITIONS, (i) => `/// Adds.\npub fn f${i}(a: i32, b: i32) -> i32 {\n    if a > b {\n        a - b * ${k}\n    } else {\n        a + b\n    }\n}\n\npub struct S${i} {\n    pub x: i32,\n}\n\nimpl S${i} {\n    pub fn m(&self) -> i32 {\n        f${i}(self.x, ${k})\n    }\n}\n`)}\npub fn show(x: &dyn fmt::Debug) -> String {\n    format!("{x:?}")\n}\n`,
          'tests/calc.rs': `use warm::calc::{f1, S2};\n\n#[test]\nfn f1_adds() {\n    assert_eq!(f1(1, ${k}), S2 { x: 4 }.m());\n}\n`,
        },
        output: `running 1 test\ntest f1_adds ... FAILED\n\nfailures:\n\n---- f1_adds stdout ----\nthread 'f1_adds' panicked at tests/calc.rs:5:5:\nassertion failed\n\nfailures:\n    f1_adds\n\ntest result: FAILED. 0 passed; 1 failed\n`,
      };
  }
}

/** Rehearse `build` for each language; returns the files shown in the last round of each (for tests). */
export async function rehearseBuilds(
  languages: Iterable<LanguageId>,
  build: RehearsedBuild,
): Promise<Map<LanguageId, string[]>> {
  const shown = new Map<LanguageId, string[]>();
  for (const language of languages) {
    for (let round = 0; round < ROUNDS; round++) {
      const { files, output } = sample(language, round);
      const tree: ContextEntry[] = Object.entries(files).map(([path, text], i) => ({
        path,
        oid: `warm-${language}-${round}-${i}`,
        size: text.length,
        kind: 'file',
      }));
      const context = await build(
        { tree, directive: 'Fix f1.', failureOutput: output, changed: new Map(), budget: BUDGET },
        memorySource(new Map(Object.entries(files))),
        new ParseCache(),
      );
      shown.set(
        language,
        context.files.map((f) => f.path),
      );
    }
  }
  return shown;
}
