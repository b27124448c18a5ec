// Building blocks of the context corpus: a case's shape, filler code in each language, unrelated
// files (so most repositories are too big to show whole), and the test output of each runner.

/** One bug to fix: a repository, the directive, the failing output, and the lines a fix changes. */
export interface ContextCase {
  name: string;
  language: 'python' | 'javascript' | 'typescript' | 'go' | 'rust';
  files: Record<string, string>;
  directive: string;
  /** The baseline test run's output (failing); `{{path#text}}` stands for the line of `path` holding `text`. */
  output: string;
  /** Lines a fix must change: in `path`, the line holding `line` (exactly one such line). */
  fix: { path: string; line: string }[];
  /** The shape of repository the case stands for (the bench reports recall per shape). */
  shape?: string;
}

type Lang = ContextCase['language'];

/** One filler function of a language, named filler_<i>. */
export function filler(lang: Lang, i: number): string {
  switch (lang) {
    case 'python':
      return `def filler_${i}(value):\n    """Scale a value (${i})."""\n    scaled = value * ${i % 7}\n    return scaled + ${i}\n`;
    case 'javascript':
      return `export function filler${i}(value) {\n  const scaled = value * ${i % 7};\n  return scaled + ${i};\n}\n`;
    case 'typescript':
      return `export function filler${i}(value: number): number {\n  const scaled = value * ${i % 7};\n  return scaled + ${i};\n}\n`;
    case 'go':
      return `// Filler${i} scales a value.\nfunc Filler${i}(value int) int {\n\tscaled := value * ${i % 7}\n\treturn scaled + ${i}\n}\n`;
    case 'rust':
      return `/// Scales a value.\npub fn filler_${i}(value: i64) -> i64 {\n    let scaled = value * ${i % 7};\n    scaled + ${i}\n}\n`;
  }
}

/** A file of `n` filler functions with `inner` placed after the first `at` of them, under `head`. */
export function bigFile(lang: Lang, n: number, at: number, inner: string, head = ''): string {
  const parts: string[] = head === '' ? [] : [head];
  for (let i = 0; i < n; i++) {
    if (i === at) parts.push(inner);
    parts.push(filler(lang, i));
  }
  return parts.join('\n');
}

/** `count` unrelated source files of about 3 KB under `dir` (never imported by the failing code). */
export function noise(lang: Lang, dir: string, count: number): Record<string, string> {
  const ext = { python: 'py', javascript: 'js', typescript: 'ts', go: 'go', rust: 'rs' }[lang];
  const out: Record<string, string> = {};
  for (let k = 0; k < count; k++) {
    const name = lang === 'go' ? `${dir}/part${k}/part${k}.go` : `${dir}/part_${k}.${ext}`;
    const head = lang === 'go' ? `package part${k}\n` : '';
    out[name] = bigFile(lang, 30, -1, '', head);
  }
  return out;
}

/** pytest's output for one failing test (an assertion in the test unless frames say otherwise). */
export function pytestOutput(o: {
  test: string;
  name: string;
  line: number;
  message: string;
  /** Frames below the test: [path, line, function]. */
  frames?: [string, number, string][];
  error?: string;
}): string {
  const frames = (o.frames ?? []).map(([p, l, f]) => `\n${p}:${l}: in ${f}\n    raise ValueError(text)`).join('');
  return `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /workspace
collected 4 items

${o.test} ..F.                                                   [100%]

=================================== FAILURES ===================================
${'_'.repeat(30)} ${o.name} ${'_'.repeat(30)}

    def ${o.name}():
>       ${o.message}
E       ${o.error ?? 'AssertionError'}

${o.test}:${o.line}: ${frames === '' ? (o.error ?? 'AssertionError').split(':')[0] : 'in ' + o.name}${frames}
=========================== short test summary info ============================
FAILED ${o.test}::${o.name} - ${o.error ?? 'AssertionError'}
========================= 1 failed, 3 passed in 0.05s ==========================
`;
}

/** TAP as node --test or tape prints it, without any path. */
export function tapOutput(failing: string, passing: string[] = []): string {
  const ok = passing.map((p, k) => `# Subtest: ${p}\nok ${k + 1} - ${p}\n  ---\n  duration_ms: 0.41\n  ...`);
  const n = passing.length + 1;
  return `TAP version 13
${ok.join('\n')}
# Subtest: ${failing}
not ok ${n} - ${failing}
  ---
  duration_ms: 1.2
  failureType: 'testCodeFailure'
  error: |-
    Expected values to be strictly equal:

    15 !== 10

  code: 'ERR_ASSERTION'
  ...
1..${n}
# tests ${n}
# pass ${n - 1}
# fail 1
`;
}

/** go test's output for one failing test in a package. */
export function goTestOutput(o: { pkg: string; test: string; file: string; line: number; message: string }): string {
  return `--- FAIL: ${o.test} (0.00s)
    ${o.file}:${o.line}: ${o.message}
FAIL
FAIL\t${o.pkg}\t0.003s
FAIL
`;
}

/** cargo test's output for one failing test. */
export function cargoOutput(o: { test: string; at: string; target?: string }): string {
  return `   Compiling app v0.1.0 (/workspace)
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.61s
     Running ${o.target ?? 'unittests src/lib.rs'} (target/debug/deps/app-1a2b3c)

running 2 tests
test other_case ... ok
test ${o.test} ... FAILED

failures:

---- ${o.test} stdout ----
thread '${o.test}' panicked at ${o.at}:
assertion \`left == right\` failed
  left: 10
 right: 0
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    ${o.test}

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;
}

/** Code appended to a small module to give it a realistic size: more functions, not exported. */
export function moduleTail(lang: Lang, n: number): string {
  return Array.from({ length: n }, (_, i) =>
    filler(lang, 500 + i)
      .replace(/^export /m, '')
      .replace(/^pub fn/m, 'fn')
      .replace(/Filler(\d+)/, 'helper$1'),
  ).join('\n');
}

/** Tests appended to a small test file to give it a realistic size (they pass). */
export function testTail(lang: Lang, n: number): string {
  return Array.from({ length: n }, (_, k) => {
    switch (lang) {
      case 'python':
        return `def test_other_${k}():\n    assert ${k} + 1 == ${k + 1}\n`;
      case 'javascript':
      case 'typescript':
        return `test('other case ${k}', () => {\n  expect(${k} + 1).toBe(${k + 1});\n});\n`;
      case 'go':
        return `func TestOther${k}(t *testing.T) {\n\tif ${k}+1 != ${k + 1} {\n\t\tt.Fatal("arithmetic")\n\t}\n}\n`;
      case 'rust':
        return `#[test]\nfn other_case_${k}() {\n    assert_eq!(${k} + 1, ${k + 1});\n}\n`;
    }
  }).join('\n');
}
