// The projects a repository holds besides the one at its root: a toolchain's manifest one or two
// directories down (`python/pyproject.toml` beside a root package.json), or a directory of a
// toolchain's test files with no manifest at all (`python/test.py` beside `python/flatted.py`,
// `tests/test_*.py` under a root that only has a package.json). Pure: the caller lists the tree.

/** The files that mark a toolchain. */
export const TOOLCHAIN_MARKERS: Readonly<Record<string, (name: string) => boolean>> = {
  python: (n) => n === 'pyproject.toml' || n === 'setup.py' || n === 'setup.cfg' || /^requirements[^/]*\.txt$/.test(n),
  node: (n) => n === 'package.json',
  go: (n) => n === 'go.mod',
  rust: (n) => n === 'Cargo.toml',
};

/** Test files and test configuration of each toolchain, anywhere in the tree. */
export const TEST_FILES: Readonly<Record<string, RegExp>> = {
  python: /(^|\/)(test_[^/]*\.py|[^/]*_test\.py|tests?\.py|conftest\.py|pytest\.ini|tox\.ini)$/,
  node: /((^|\/)__tests__\/.*|\.(test|spec)\.[cm]?[jt]sx?|(^|\/)(jest|vitest|ava|playwright)\.config\.[cm]?[jt]s|(^|\/)\.mocharc(\.[a-z]+)?)$/,
  go: /_test\.go$/,
  rust: /^(tests|benches)\/[^/]+\.rs$/,
};

/**
 * Test files that make a directory a project of their toolchain without any manifest (its tests
 * can run with nothing installed): Python's (pytest's files, or a `test.py` script) and Go's (run
 * in GOPATH mode).
 */
const MANIFESTLESS_TESTS: Readonly<Record<string, RegExp>> = {
  python: /^(test_[^/]*\.py|[^/]*_test\.py|tests?\.py)$/,
  go: /^[^/]*_test\.go$/,
};

/** Directories never looked at for evidence (dependencies and vendored copies). */
export const IGNORED = /(^|\/)(node_modules|vendor|\.venv|venv|target|dist|build|\.git)\//;

/** Directories whose manifests are not the repository's projects (documentation, examples, test fixtures). */
const NOT_PROJECTS =
  /(^|\/)(docs?|examples?|samples?|demos?|fixtures?|testdata|test|tests|__tests__|spec|benchmarks?|third_party|vendor|external)(\/|$)/;

/** Directories that hold a project's tests (a test file there belongs to the directory above). */
const TEST_DIRS = /^(tests?|__tests__|spec)$/;

/**
 * A project directory's name as it may appear in a test command and a setup script (`cd <dir>`):
 * plain words only, so a directory name never becomes shell syntax.
 */
export const SAFE_PROJECT_DIR = /^[A-Za-z0-9_][A-Za-z0-9._-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)?$/;

/** A project in the repository: a toolchain at a directory, its marker files and where its tests are. */
export interface Candidate {
  toolchain: string;
  /** The project's directory ('' for the repository's root; else e.g. "python" or "services/api"). */
  dir: string;
  /** Its marker files (repository paths); empty for a directory of test files without a manifest. */
  markers: string[];
  /** Where its tests are (repository paths, e.g. "python/tests/"); empty when none was found. */
  tests: string[];
  /**
   * The test command its files call for, run in its directory, when the toolchain's default would
   * not run them: `python3 test.py` for a test script, `GO111MODULE=off go test ./...` without a go.mod.
   */
  command?: string;
}

/** Where a toolchain's tests are, summarised: the top directories holding test files (at most four). */
export function testDirs(toolchain: string, paths: readonly string[]): string[] {
  const re = TEST_FILES[toolchain];
  const out = new Set<string>();
  if (!re) return [];
  for (const p of paths) {
    if (!re.test(p)) continue;
    out.add(p.includes('/') ? `${p.split('/')[0]}/` : p);
    if (out.size >= 4) break;
  }
  return [...out];
}

/** Projects one or two directories down that have a manifest and tests, by toolchain and directory, in path order. */
export function nestedCandidates(paths: readonly string[]): Candidate[] {
  const found = new Map<string, Candidate>();
  for (const p of paths) {
    const parts = p.split('/');
    if (parts.length < 2 || parts.length > 3) continue;
    const dir = parts.slice(0, -1).join('/');
    if (NOT_PROJECTS.test(dir) || !SAFE_PROJECT_DIR.test(dir)) continue;
    const name = parts.at(-1)!;
    for (const tc of Object.keys(TOOLCHAIN_MARKERS).sort()) {
      if (!TOOLCHAIN_MARKERS[tc]!(name)) continue;
      const key = `${tc}\u0000${dir}`;
      const c = found.get(key) ?? { toolchain: tc, dir, markers: [], tests: [] };
      c.markers.push(p);
      found.set(key, c);
    }
  }
  const out: Candidate[] = [];
  for (const c of found.values()) {
    // a project inside another project of the same toolchain is part of it (a workspace member)
    if ([...found.values()].some((o) => o !== c && o.toolchain === c.toolchain && c.dir.startsWith(`${o.dir}/`)))
      continue;
    const prefix = `${c.dir}/`;
    const inside = paths.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));
    c.tests = testDirs(c.toolchain, inside).map((t) => `${prefix}${t}`);
    if (c.tests.length > 0) out.push(c);
  }
  return out.sort(byDir);
}

/**
 * Directories of Python or Go test files with no manifest of that toolchain in or above them (the
 * root's included), at most two directories down (a `tests/` directory's files belong to the one
 * above it, so `tests/test_x.py` makes the root a candidate). `taken` are the projects already
 * found (the root's markers as dir ''), whose directories are left to them.
 */
export function manifestlessCandidates(paths: readonly string[], taken: readonly Candidate[]): Candidate[] {
  const found = new Map<string, { toolchain: string; dir: string; files: string[] }>();
  for (const p of paths) {
    const parts = p.split('/');
    const name = parts.at(-1)!;
    let dirParts = parts.slice(0, -1);
    if (dirParts.length > 0 && TEST_DIRS.test(dirParts.at(-1)!)) dirParts = dirParts.slice(0, -1);
    if (dirParts.length > 2) continue;
    const dir = dirParts.join('/');
    if (dir !== '' && (NOT_PROJECTS.test(dir) || !SAFE_PROJECT_DIR.test(dir))) continue;
    for (const [tc, re] of Object.entries(MANIFESTLESS_TESTS)) {
      if (!re.test(name)) continue;
      const inside = (o: { toolchain: string; dir: string }): boolean =>
        o.toolchain === tc && (o.dir === '' || dir === o.dir || dir.startsWith(`${o.dir}/`));
      if (taken.some(inside)) continue;
      const key = `${tc}\u0000${dir}`;
      const c = found.get(key) ?? { toolchain: tc, dir, files: [] };
      c.files.push(p);
      found.set(key, c);
    }
  }
  const out: Candidate[] = [];
  for (const c of found.values()) {
    // the shallowest directory of a toolchain's tests is the project (python/ rather than python/sub/)
    if ([...found.values()].some((o) => o !== c && o.toolchain === c.toolchain && inDir(c.dir, o.dir))) continue;
    const prefix = c.dir === '' ? '' : `${c.dir}/`;
    const tests = [
      ...new Set(
        c.files.map((f) =>
          f.slice(prefix.length).includes('/') ? `${prefix}${f.slice(prefix.length).split('/')[0]}/` : f,
        ),
      ),
    ];
    const command = commandFor(
      c.toolchain,
      c.files.map((f) => f.slice(prefix.length)),
    );
    out.push({
      toolchain: c.toolchain,
      dir: c.dir,
      markers: [],
      tests: tests.slice(0, 4),
      ...(command ? { command } : {}),
    });
  }
  return out.sort(byDir);
}

/** The test command of a manifest-less project, by its test files (relative to it). */
function commandFor(toolchain: string, files: readonly string[]): string | undefined {
  if (toolchain === 'go') return 'GO111MODULE=off go test ./...';
  if (toolchain !== 'python') return undefined;
  // pytest's own files: its default command; else the one test script, run as a script
  if (files.some((f) => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(f))) return undefined;
  const script = files.find((f) => !f.includes('/'));
  return script === undefined ? undefined : `python3 ${script}`;
}

/** `dir` is `parent` or inside it ('' holds everything). */
function inDir(dir: string, parent: string): boolean {
  return parent === '' || dir.startsWith(`${parent}/`);
}

function byDir(a: Candidate, b: Candidate): number {
  return a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : a.toolchain < b.toolchain ? -1 : 1;
}
