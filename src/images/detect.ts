// Which toolchain a repository needs, decided from evidence in the base commit's tree (never the
// working tree): the manifests at its root, where its tests are and what configures them, and,
// when several ecosystems are present, which one the tests (or the directive) belong to. Refuses
// with the list when it is truly ambiguous. Pure: the caller lists the tree and reads the files.
import { HammerError } from '../errors.js';

/** The files that mark a toolchain, at the repository root. */
export const TOOLCHAIN_MARKERS: Readonly<Record<string, (name: string) => boolean>> = {
  python: (n) => n === 'pyproject.toml' || n === 'setup.py' || n === 'setup.cfg' || /^requirements[^/]*\.txt$/.test(n),
  node: (n) => n === 'package.json',
  go: (n) => n === 'go.mod',
  rust: (n) => n === 'Cargo.toml',
};

/** Source file extensions, consulted only when no marker file is present (a bare pytest repo). */
const SOURCE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  python: ['.py'],
  node: ['.js', '.mjs', '.cjs', '.ts'],
  go: ['.go'],
  rust: ['.rs'],
};

/** Test files and test configuration of each toolchain, anywhere in the tree. */
const TEST_FILES: Readonly<Record<string, RegExp>> = {
  python: /(^|\/)(test_[^/]*\.py|[^/]*_test\.py|conftest\.py|pytest\.ini|tox\.ini)$/,
  node: /((^|\/)__tests__\/.*|\.(test|spec)\.[cm]?[jt]sx?|(^|\/)(jest|vitest|ava|playwright)\.config\.[cm]?[jt]s|(^|\/)\.mocharc(\.[a-z]+)?)$/,
  go: /_test\.go$/,
  rust: /^(tests|benches)\/[^/]+\.rs$/,
};

/** Directories never looked at for evidence (dependencies and vendored copies). */
const IGNORED = /(^|\/)(node_modules|vendor|\.venv|venv|target|dist|build|\.git)\//;

/** What detection can read besides file names (each optional). */
export interface DetectFacts {
  /** The root package.json's text. */
  packageJson?: string;
  /** The root pyproject.toml's text. */
  pyproject?: string;
  /** The directive: paths it names can tell which ecosystem the failing tests belong to. */
  directive?: string;
}

/** What detection found: the toolchain and the files that decided it. */
export interface Detection {
  toolchain: string;
  /** The marker files (or, without any, the source files) that chose it. */
  evidence: string[];
  /** Where its tests are (e.g. "tests/", "package.json test script"); empty when none was found. */
  tests: string[];
  /** 'marker' when one manifest decided; 'evidence' when tests or the directive chose among several; 'sources' when only file extensions did. */
  by: 'marker' | 'evidence' | 'sources';
  /** Why the others were passed over, when there were several candidates. */
  passedOver: string[];
}

/** npm's placeholder test script (`npm init`): not a test suite. */
const NPM_PLACEHOLDER = /no test specified/;

/**
 * Detect the toolchain. USAGE when none matches, or when several do and the evidence cannot tell
 * them apart, listing each with its files and the overrides.
 */
export function detectToolchain(
  rootFiles: readonly string[],
  allPaths: readonly string[] = rootFiles,
  facts: DetectFacts = {},
): Detection {
  const paths = allPaths.filter((p) => !IGNORED.test(p));
  const byMarker = matchAll(rootFiles, (name, tc) => TOOLCHAIN_MARKERS[tc]!(name));
  if (byMarker.size === 1) {
    const [toolchain, evidence] = [...byMarker][0]!;
    return { toolchain, evidence, tests: testEvidence(toolchain, paths, facts), by: 'marker', passedOver: [] };
  }
  if (byMarker.size > 1) return choose(byMarker, paths, facts);
  const bySource = matchAll(paths, (p, tc) => SOURCE_EXTENSIONS[tc]!.some((ext) => p.endsWith(ext)));
  if (bySource.size === 1) {
    const [toolchain, evidence] = [...bySource][0]!;
    return {
      toolchain,
      evidence: evidence.slice(0, 5),
      tests: testEvidence(toolchain, paths, facts),
      by: 'sources',
      passedOver: [],
    };
  }
  const markers =
    'pyproject.toml, setup.py, setup.cfg or requirements*.txt (python), package.json (node), go.mod (go), Cargo.toml (rust)';
  if (bySource.size > 1) {
    const found = [...bySource].map(([tc, files]) => `${tc} (${files.slice(0, 3).join(', ')})`).join('; ');
    throw new HammerError(
      'USAGE',
      `cannot tell the repository's toolchain: no ${markers} at its root, and its sources are mixed: ${found}`,
      { hint: OVERRIDE_HINT },
    );
  }
  throw new HammerError('USAGE', `cannot tell the repository's toolchain: none of ${markers} is at its root`, {
    hint: OVERRIDE_HINT,
  });
}

/** Several manifests: the one ecosystem with tests wins; else the one the directive names; else refuse. */
function choose(byMarker: Map<string, string[]>, paths: readonly string[], facts: DetectFacts): Detection {
  const tests = new Map([...byMarker.keys()].map((tc) => [tc, testEvidence(tc, paths, facts)]));
  const withTests = [...byMarker.keys()].filter((tc) => tests.get(tc)!.length > 0);
  const named = directiveMentions(facts.directive ?? '', withTests.length > 0 ? withTests : [...byMarker.keys()]);
  const pick = withTests.length === 1 ? withTests[0]! : named.length === 1 ? named[0]! : null;
  if (pick !== null) {
    const passedOver = [...byMarker.keys()]
      .filter((tc) => tc !== pick)
      .map((tc) =>
        tests.get(tc)!.length === 0
          ? `${tc} (${byMarker.get(tc)!.join(', ')}) has no tests`
          : `${tc} (${byMarker.get(tc)!.join(', ')}) is not what the directive names`,
      );
    return { toolchain: pick, evidence: byMarker.get(pick)!, tests: tests.get(pick)!, by: 'evidence', passedOver };
  }
  const found = [...byMarker]
    .map(([tc, files]) => {
      const t = tests.get(tc)!;
      return `${tc} (${files.join(', ')}; ${t.length > 0 ? `tests: ${t.join(', ')}` : 'no tests found'})`;
    })
    .join('; ');
  throw new HammerError(
    'USAGE',
    `the repository matches several toolchains and the evidence does not decide: ${found}`,
    {
      hint: OVERRIDE_HINT,
    },
  );
}

/** Where a toolchain's tests are, summarised: directories holding test files, test configuration, a real test script. */
export function testEvidence(toolchain: string, paths: readonly string[], facts: DetectFacts = {}): string[] {
  const re = TEST_FILES[toolchain];
  const out = new Set<string>();
  if (re) {
    for (const p of paths) {
      if (!re.test(p)) continue;
      const dir = p.includes('/') ? `${p.split('/')[0]}/` : p;
      out.add(dir);
      if (out.size >= 4) break;
    }
  }
  if (toolchain === 'node' && facts.packageJson !== undefined) {
    const script = testScript(facts.packageJson);
    if (script !== null && !NPM_PLACEHOLDER.test(script)) out.add('package.json test script');
  }
  if (
    toolchain === 'python' &&
    facts.pyproject !== undefined &&
    /^\[tool\.pytest\.ini_options\]/m.test(facts.pyproject)
  )
    out.add('[tool.pytest.ini_options]');
  return [...out];
}

function testScript(text: string): string | null {
  try {
    const pkg: unknown = JSON.parse(text);
    if (typeof pkg !== 'object' || pkg === null) return null;
    const scripts = (pkg as Record<string, unknown>)['scripts'];
    if (typeof scripts !== 'object' || scripts === null) return null;
    const test = (scripts as Record<string, unknown>)['test'];
    return typeof test === 'string' ? test : null;
  } catch {
    return null;
  }
}

/** The toolchains among `candidates` whose source files the directive names (e.g. `tests/test_parser.py`). */
function directiveMentions(directive: string, candidates: readonly string[]): string[] {
  const words = directive.match(/[\w./-]+\.[a-z]{1,4}\b/g) ?? [];
  return candidates.filter((tc) => words.some((w) => SOURCE_EXTENSIONS[tc]!.some((ext) => w.endsWith(ext))));
}

/** The one line a run prints about its environment, e.g. `toolchain python (pyproject.toml, tests/), test command: python3 -m pytest -q`. */
export function environmentLine(opts: {
  toolchain: string | null;
  version?: string;
  evidence: readonly string[];
  testCommand: string;
  named?: boolean;
}): string {
  if (opts.toolchain === null) return `your image, test command: ${opts.testCommand}`;
  const why = opts.named ? 'named' : opts.evidence.join(', ');
  return `toolchain ${opts.toolchain}${opts.version ? ` ${opts.version}` : ''}${why ? ` (${why})` : ''}, test command: ${opts.testCommand}`;
}

const OVERRIDE_HINT =
  'name it with --toolchain <python|node|go|rust> (or [sandbox] toolchain in a config file); a custom image with --image also needs [tools] test_command / --test-command';

function matchAll(paths: readonly string[], test: (path: string, toolchain: string) => boolean): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const tc of Object.keys(TOOLCHAIN_MARKERS).sort()) {
    const files = paths.filter((p) => test(p, tc)).sort();
    if (files.length > 0) found.set(tc, files);
  }
  return found;
}
