// Which paths of a tree are source code, tests, or never worth showing (pure, by path only).

/** Directories whose content is vendored, generated or built, never shown. */
const SKIPPED_DIRS = new Set([
  'node_modules',
  'vendor',
  'target',
  'dist',
  'build',
  'out',
  'coverage',
  '.git',
  '.hammer',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.next',
  '.cache',
  'site-packages',
]);

/** Extensions of source files (code in any common language), shown when a repository is small. */
const SOURCE_EXTENSIONS = new Set([
  'py', 'pyi', 'js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'go', 'rs', 'c', 'h', 'cc', 'cpp', 'hpp',
  'java', 'kt', 'rb', 'php', 'cs', 'swift', 'scala', 'sh', 'lua', 'ex', 'exs', 'erl', 'hs', 'ml', 'zig', 'vue',
  'svelte',
]); // prettier-ignore

/** Build and project files worth showing beside the code of a small repository. */
const MANIFESTS = new Set(['go.mod', 'Cargo.toml', 'package.json', 'pyproject.toml', 'setup.py', 'setup.cfg']);

/** The path is inside a vendored, generated or tool directory. */
export function isSkippedPath(path: string): boolean {
  return isSkippedDir(dirName(path));
}

/** The directory ('' for the root) is, or is inside, a vendored, generated or tool directory. */
export function isSkippedDir(dir: string): boolean {
  if (dir === '') return false;
  return dir.split('/').some((p) => SKIPPED_DIRS.has(p) || (p.startsWith('.') && p !== '.'));
}

/** The path is a source file or a project manifest (not minified, not vendored). */
export function isSourcePath(path: string): boolean {
  return !isSkippedPath(path) && isSourceName(baseName(path));
}

/** A file of this name (last segment) is source code or a project manifest, wherever it is. */
export function isSourceName(base: string): boolean {
  if (MANIFESTS.has(base)) return true;
  if (/\.min\.[a-z]+$/.test(base) || base.endsWith('.d.ts')) return false;
  const dot = base.lastIndexOf('.');
  return dot > 0 && SOURCE_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
}

/** The path holds tests by the usual conventions of Python, JS/TS, Go and Rust. */
export function isTestPath(path: string): boolean {
  const base = baseName(path);
  if (/^test_.*\.py$|_test\.py$|^conftest\.py$/.test(base)) return true;
  if (/\.(test|spec)(-d)?\.[cm]?[jt]sx?$/.test(base)) return true;
  if (base.endsWith('_test.go')) return true;
  const dirs = path.split('/').slice(0, -1);
  return dirs.some((d) => d === 'tests' || d === 'test' || d === '__tests__' || d === 'spec');
}

/** The last segment of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The directory of a path ('' at the root). */
export function dirName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Join path segments, dropping empty ones. */
export function joinPath(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}

/** Normalise a relative path: drop `.` segments, apply `..` (null when it climbs out of the root). */
export function normalizePath(path: string): string | null {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}
