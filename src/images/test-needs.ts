// Whether the tests can run without what an offline setup skipped: the test runner the test
// command starts, and the modules the test files import at their top level (a module of the
// repository itself is never missing), for Python and for Node. Pure: the caller reads the files.
import { builtinModules } from 'node:module';

/** The import names a distribution commonly provides, where they differ from its name. */
const MODULE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  pyyaml: ['yaml'],
  beautifulsoup4: ['bs4'],
  pillow: ['PIL'],
  'scikit-learn': ['sklearn'],
  'scikit-image': ['skimage'],
  'python-dateutil': ['dateutil'],
  'opencv-python': ['cv2'],
  'opencv-python-headless': ['cv2'],
  pyjwt: ['jwt'],
  protobuf: ['google'],
  attrs: ['attr', 'attrs'],
  pycryptodome: ['Crypto'],
  pycryptodomex: ['Cryptodome'],
  pyzmq: ['zmq'],
  mysqlclient: ['MySQLdb'],
  'psycopg2-binary': ['psycopg2'],
  'psycopg-binary': ['psycopg'],
  dnspython: ['dns'],
  pyserial: ['serial'],
  pyopenssl: ['OpenSSL'],
  'python-dotenv': ['dotenv'],
  'python-multipart': ['multipart'],
  'msgpack-python': ['msgpack'],
  setuptools: ['setuptools', 'pkg_resources'],
  'typing-extensions': ['typing_extensions'],
  'importlib-metadata': ['importlib_metadata'],
  'pytest-asyncio': ['pytest_asyncio'],
};

/** The import names `dist` (a normalised distribution name) may provide. */
export function modulesOf(dist: string): string[] {
  const n = dist.toLowerCase();
  const plain = n.replace(/[-.]/g, '_');
  const out = new Set([plain, n.replace(/[-_.]/g, ''), ...(MODULE_ALIASES[n] ?? [])]);
  if (n.startsWith('python-')) out.add(plain.slice('python_'.length));
  return [...out];
}

/** The top-level modules a Python file imports unconditionally (module-level, unindented statements; relative imports left out). */
export function pythonImports(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split('\n').slice(0, 5000)) {
    const from = /^from\s+([A-Za-z_][\w.]*)\s+import\b/.exec(line);
    if (from) {
      out.add(from[1]!.split('.')[0]!);
      continue;
    }
    const imp =
      /^import\s+([A-Za-z_][\w.]*(?:\s+as\s+\w+)?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s+as\s+\w+)?)*)\s*(?:#.*)?$/.exec(
        line.replace(/\r$/, ''),
      );
    if (imp) for (const part of imp[1]!.split(',')) out.add(part.trim().split(/[\s.]/)[0]!);
  }
  return [...out];
}

/** The module names a repository defines itself: every directory holding Python files, and every Python file's name. */
export function localModules(paths: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    if (!p.endsWith('.py')) continue;
    const parts = p.split('/');
    for (const dir of parts.slice(0, -1)) out.add(dir);
    out.add(parts.at(-1)!.slice(0, -3));
  }
  return out;
}

/** Python test files and test configuration, as pytest finds them by default. */
export const PYTHON_TEST_FILE = /(^|\/)(test_[^/]*\.py|[^/]*_test\.py|conftest\.py)$/;

/** Directories whose files are not the repository's own tests (dependencies, virtual environments). */
const NOT_OURS = /(^|\/)(node_modules|\.venv|venv|\.tox|\.nox|site-packages|\.git)\//;

/** The repository's Python test files among `paths`, at most `max`. */
export function pythonTestFiles(paths: readonly string[], max = 1000): string[] {
  return paths.filter((p) => PYTHON_TEST_FILE.test(p) && !NOT_OURS.test(p)).slice(0, max);
}

/** JavaScript and TypeScript test files, as the common runners find them. */
export const JS_TEST_FILE =
  /((^|\/)__tests__\/.*\.[cm]?[jt]sx?|\.(test|spec)\.[cm]?[jt]sx?|(^|\/)test\/.*\.[cm]?[jt]s)$/;

/** The repository's JavaScript and TypeScript test files among `paths`, at most `max`. */
export function jsTestFiles(paths: readonly string[], max = 1000): string[] {
  return paths.filter((p) => JS_TEST_FILE.test(p) && !NOT_OURS.test(p)).slice(0, max);
}

/** The packages a JavaScript or TypeScript file imports or requires by name (`@scope/pkg`, `pkg`; not relative paths, not builtins). */
export function jsImports(text: string): string[] {
  const out = new Set<string>();
  const re = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"\n]{1,200})['"]/g;
  for (const m of text.slice(0, 1_000_000).matchAll(re)) {
    const spec = m[1]!;
    if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) continue;
    const parts = spec.split('/');
    const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    if (!BUILTINS.has(name)) out.add(name);
  }
  return [...out];
}

const BUILTINS = new Set(builtinModules);

/** The program an npm test script starts: `vitest run` → vitest, `npx jest` → jest, `node --test` → null (node itself). */
export function jsRunnerOf(script: string): string | null {
  const words = script
    .trim()
    .split(/\s+/)
    .filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const program = words[0] === 'npx' ? words.find((w, i) => i > 0 && !w.startsWith('-')) : words[0];
  if (program === undefined || ['node', 'npm', 'pnpm', 'yarn', 'sh', 'bash'].includes(program)) return null;
  return /^[A-Za-z@][\w@./-]*$/.test(program) ? program : null;
}

/** What the tests need that setup could not have. */
export interface TestNeeds {
  /** The test runner itself, when setup skipped it. */
  runner: string | null;
  /** Skipped distributions the tests import, each with the module and the first file importing it. */
  imports: { dist: string; module: string; file: string }[];
}

/**
 * What of `skipped` (normalised distribution names) the tests cannot do without: the runner the
 * test command starts (`python3 -m <module>`, or its program), and the modules the test files
 * import that no file of the repository provides.
 */
export function testNeeds(opts: {
  skipped: readonly string[];
  testCommand: string;
  testFiles: ReadonlyMap<string, string>;
  local: ReadonlySet<string>;
}): TestNeeds {
  const byModule = new Map<string, string>();
  for (const dist of opts.skipped) for (const m of modulesOf(dist)) byModule.set(m.toLowerCase(), dist);
  const runnerName = runnerOf(opts.testCommand);
  const runner = runnerName === null ? null : (byModule.get(runnerName.toLowerCase()) ?? null);
  const imports: TestNeeds['imports'] = [];
  const seen = new Set<string>();
  for (const [file, text] of [...opts.testFiles].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    for (const module of pythonImports(text)) {
      const dist = byModule.get(module.toLowerCase());
      if (dist === undefined || dist === runner || opts.local.has(module) || seen.has(dist)) continue;
      seen.add(dist);
      imports.push({ dist, module, file });
    }
  }
  return { runner, imports };
}

/** What a Node project's tests need of `skipped` (package names): the program its test script starts, and the packages its test files import. */
export function nodeTestNeeds(opts: {
  skipped: readonly string[];
  testScript: string | null;
  testFiles: ReadonlyMap<string, string>;
}): TestNeeds {
  const skipped = new Set(opts.skipped);
  const program = opts.testScript === null ? null : jsRunnerOf(opts.testScript);
  const runner = program !== null && skipped.has(program) ? program : null;
  const imports: TestNeeds['imports'] = [];
  for (const [file, text] of [...opts.testFiles].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    for (const name of jsImports(text)) {
      if (!skipped.has(name) || name === runner || imports.some((i) => i.dist === name)) continue;
      imports.push({ dist: name, module: name, file });
    }
  }
  return { runner, imports };
}

/** The runner a test command starts: `python3 -m pytest -q` → pytest, `tox -e py` → tox; null when it cannot tell. */
export function runnerOf(command: string): string | null {
  const words = command.trim().split(/\s+/);
  const python = /^(?:\S*\/)?python[\d.]*$/.test(words[0] ?? '');
  if (python) return words[1] === '-m' && words[2] !== undefined ? words[2] : null;
  const program = (words[0] ?? '').split('/').at(-1) ?? '';
  return /^[A-Za-z][\w.-]*$/.test(program) ? program : null;
}
