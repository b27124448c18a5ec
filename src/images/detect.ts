// Which toolchain a repository needs, decided from evidence in the base commit's tree (never the
// working tree): the manifests at its root, where its tests are and what configures them, and,
// when several ecosystems are present, which one the tests (or the directive) belong to. Refuses
// with the list when it is truly ambiguous. Pure: the caller lists the tree and reads the files.
import { HammerError } from '../errors.js';
import { asksForFix } from '../text/fix-directive.js';
import { directiveLanguages } from './directive-languages.js';
import {
  IGNORED,
  TEST_FILES,
  TOOLCHAIN_MARKERS,
  manifestlessCandidates,
  nestedCandidates,
  testDirs,
  type Candidate,
} from './project-candidates.js';

export { SAFE_PROJECT_DIR, TOOLCHAIN_MARKERS, nestedCandidates, type Candidate } from './project-candidates.js';

/** Source file extensions, consulted only when no marker file is present (a bare pytest repo). */
const SOURCE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  python: ['.py'],
  node: ['.js', '.mjs', '.cjs', '.ts'],
  go: ['.go'],
  rust: ['.rs'],
};

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
  /** The project's directory relative to the root ('' for the root): its tests and setup run there. */
  dir: string;
  /** The marker files (or, without any, the source files) that chose it. */
  evidence: string[];
  /** Where its tests are (e.g. "tests/", "package.json test script"); empty when none was found. */
  tests: string[];
  /** 'marker' when one manifest decided; 'evidence' when tests or the directive chose among several; 'sources' when only file extensions did. */
  by: 'marker' | 'evidence' | 'sources';
  /** Why the others were passed over, when there were several candidates. */
  passedOver: string[];
  /**
   * The other projects with tests, in order: a run whose tests pass at baseline on a directive
   * that asks for a fix tries their test commands before it asks the model.
   */
  alternatives: Candidate[];
  /** The test command the project's files call for (see Candidate.command); absent: the toolchain's or package manager's. */
  command?: string;
}

/** npm's placeholder test script (`npm init`): not a test suite. */
const NPM_PLACEHOLDER = /no test specified/;

/**
 * Detect the toolchain. USAGE when none matches, or when several do and the evidence cannot tell
 * them apart, listing each with its files and the overrides. Besides the root's manifests, a
 * project one or two directories down (e.g. `python/pyproject.toml` beside a root package.json)
 * is a candidate when it has tests: it is chosen when the directive points into it, and is
 * otherwise an alternative the run tries when the chosen one's tests pass at baseline.
 */
export function detectToolchain(
  rootFiles: readonly string[],
  allPaths: readonly string[] = rootFiles,
  facts: DetectFacts = {},
): Detection {
  const paths = allPaths.filter((p) => !IGNORED.test(p));
  const directive = facts.directive ?? '';
  const byMarker = matchAll(rootFiles, (name, tc) => TOOLCHAIN_MARKERS[tc]!(name));
  const withManifest = nestedCandidates(paths).filter((c) => !byMarker.has(c.toolchain));
  // directories of test files without a manifest count beside a project with one (a bare
  // repository of sources is decided by their extensions, below)
  const taken = [
    ...[...byMarker.keys()].map((tc) => ({ toolchain: tc, dir: '', markers: [], tests: [] })),
    ...withManifest,
  ];
  const nested =
    byMarker.size > 0 || withManifest.length > 0
      ? [...withManifest, ...manifestlessCandidates(paths, taken)].sort((a, b) =>
          a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : a.toolchain < b.toolchain ? -1 : 1,
        )
      : [];
  const languages = directiveLanguages(directive);
  if (byMarker.size === 1) {
    const [toolchain, evidence] = [...byMarker][0]!;
    const root: Candidate = { toolchain, dir: '', markers: evidence, tests: testEvidence(toolchain, paths, facts) };
    const pointed = nested.filter((c) => pointsAt(directive, c, paths, nested));
    const others = (pick: Candidate): Candidate[] => [
      ...(root.tests.length > 0 ? [root] : []),
      ...nested.filter((c) => c !== pick),
    ];
    if (pointed.length === 1 && !pointsAt(directive, root, paths, nested))
      return fromCandidate(
        pointed[0]!,
        'evidence',
        [`${describe(root)}: the directive points at ${where(pointed[0]!)}`],
        others(pointed[0]!),
      );
    // no path decides: the one project of the language the directive names (not the root's)
    const named = nested.filter((c) => languages.includes(c.toolchain));
    if (pointed.length === 0 && named.length === 1 && !languages.includes(toolchain))
      return fromCandidate(
        named[0]!,
        'evidence',
        [`${describe(root)}: the directive names ${named[0]!.toolchain}, which is at ${where(named[0]!)}`],
        others(named[0]!),
      );
    return { ...fromCandidate(root, 'marker', [], nested), evidence };
  }
  if (byMarker.size > 1) return choose(byMarker, paths, facts, nested);
  if (nested.length > 0) return chooseNested(nested, paths, directive);
  const bySource = matchAll(paths, (p, tc) => SOURCE_EXTENSIONS[tc]!.some((ext) => p.endsWith(ext)));
  if (bySource.size === 1) {
    const [toolchain, evidence] = [...bySource][0]!;
    return {
      toolchain,
      dir: '',
      evidence: evidence.slice(0, 5),
      tests: testEvidence(toolchain, paths, facts),
      by: 'sources',
      passedOver: [],
      alternatives: [],
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

/**
 * Several manifests at the root: the one ecosystem with tests wins; else the one the directive
 * names; else, on a directive that asks for a fix, the one with the most test evidence (the others
 * are tried when its tests pass at baseline); else refuse.
 */
function choose(
  byMarker: Map<string, string[]>,
  paths: readonly string[],
  facts: DetectFacts,
  nested: readonly Candidate[],
): Detection {
  const directive = facts.directive ?? '';
  const tests = new Map([...byMarker.keys()].map((tc) => [tc, testEvidence(tc, paths, facts)]));
  const withTests = [...byMarker.keys()].filter((tc) => tests.get(tc)!.length > 0);
  const named = directiveMentions(directive, withTests.length > 0 ? withTests : [...byMarker.keys()]);
  const testFiles = (tc: string): number => paths.filter((p) => TEST_FILES[tc]?.test(p) === true).length;
  const busiest = [...withTests].sort((a, b) => testFiles(b) - testFiles(a));
  const pick =
    withTests.length === 1
      ? withTests[0]!
      : named.length === 1
        ? named[0]!
        : withTests.length > 1 && asksForFix(directive)
          ? busiest[0]!
          : null;
  if (pick !== null) {
    const candidate = (tc: string): Candidate => ({
      toolchain: tc,
      dir: '',
      markers: byMarker.get(tc)!,
      tests: tests.get(tc)!,
    });
    const others = [...byMarker.keys()].filter((tc) => tc !== pick);
    const why = withTests.length === 1 ? 'has no tests' : named.length === 1 ? 'is not what the directive names' : null;
    const passedOver = others.map((tc) =>
      tests.get(tc)!.length === 0
        ? `${describe(candidate(tc))} has no tests`
        : `${describe(candidate(tc))} ${why ?? `has fewer tests; tried if ${pick}'s tests pass at baseline`}`,
    );
    return fromCandidate(candidate(pick), 'evidence', passedOver, [
      ...others.filter((tc) => tests.get(tc)!.length > 0).map(candidate),
      ...nested,
    ]);
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

/** No manifest at the root, projects with tests below it: the one there is, the one the directive points at, or on a fix the first. */
function chooseNested(nested: readonly Candidate[], paths: readonly string[], directive: string): Detection {
  const pointed = nested.filter((c) => pointsAt(directive, c, paths, nested));
  const languages = directiveLanguages(directive);
  const named = nested.filter((c) => languages.includes(c.toolchain));
  const pick =
    nested.length === 1
      ? nested[0]!
      : pointed.length === 1
        ? pointed[0]!
        : pointed.length === 0 && named.length === 1
          ? named[0]!
          : asksForFix(directive)
            ? nested[0]!
            : null;
  if (pick === null) {
    throw new HammerError(
      'USAGE',
      `the repository has no manifest at its root and several projects below it: ${nested.map((c) => `${describe(c)}, tests: ${c.tests.join(', ')}`).join('; ')}`,
      { hint: OVERRIDE_HINT },
    );
  }
  const others = nested.filter((c) => c !== pick);
  return fromCandidate(
    pick,
    'evidence',
    others.map(
      (c) =>
        `${describe(c)} ${pointed.length === 1 ? 'is not where the directive points' : `is tried if ${pick.dir}/'s tests pass at baseline`}`,
    ),
    others,
  );
}

function fromCandidate(
  c: Candidate,
  by: Detection['by'],
  passedOver: string[],
  alternatives: readonly Candidate[],
): Detection {
  return {
    toolchain: c.toolchain,
    dir: c.dir,
    evidence: c.markers.length > 0 ? c.markers : c.tests,
    tests: c.markers.length > 0 ? c.tests : [],
    by,
    passedOver,
    alternatives: [...alternatives],
    ...(c.command ? { command: c.command } : {}),
  };
}

/** "python (python/pyproject.toml)", "python (python/test.py, no manifest)". */
export function describeCandidate(c: Candidate): string {
  return c.markers.length > 0
    ? `${c.toolchain} (${c.markers.join(', ')})`
    : `${c.toolchain} (${c.tests.join(', ')}, no manifest)`;
}

const describe = describeCandidate;

/**
 * The directive points at a project: it names a path inside the project's directory, or a file of
 * the project's language that is there (and not in another project), e.g. `tests/test_calc.py`
 * for `python/tests/test_calc.py`. The root project: a file of its language outside every nested one.
 */
function pointsAt(directive: string, c: Candidate, paths: readonly string[], nested: readonly Candidate[]): boolean {
  const words = directive.match(/[\w][\w./-]*/g) ?? [];
  const inDir = (p: string, dir: string): boolean => dir === '' || p.startsWith(`${dir}/`);
  const inOther = (p: string): boolean => nested.some((n) => n !== c && n.dir !== '' && inDir(p, n.dir));
  for (const raw of words) {
    const w = raw.replace(/[./]+$/, '');
    if (c.dir !== '' && (w === c.dir || w.startsWith(`${c.dir}/`)) && w.includes('/')) return true;
    if (!SOURCE_EXTENSIONS[c.toolchain]!.some((ext) => w.endsWith(ext))) continue;
    const hits = paths.filter((p) => p === w || p.endsWith(`/${w}`));
    if (
      hits.some(
        (p) => inDir(p, c.dir) && !inOther(p) && (c.dir !== '' || !nested.some((n) => n !== c && inDir(p, n.dir))),
      )
    )
      return true;
  }
  return false;
}

/** Where a toolchain's tests are, summarised: directories holding test files, test configuration, a real test script. */
export function testEvidence(toolchain: string, paths: readonly string[], facts: DetectFacts = {}): string[] {
  const out = new Set<string>(testDirs(toolchain, paths));
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

/**
 * The toolchains among `candidates` whose source files the directive names (e.g. `tests/test_parser.py`),
 * else those whose language it names ("the Python port").
 */
function directiveMentions(directive: string, candidates: readonly string[]): string[] {
  const words = directive.match(/[\w./-]+\.[a-z]{1,4}\b/g) ?? [];
  const byFile = candidates.filter((tc) => words.some((w) => SOURCE_EXTENSIONS[tc]!.some((ext) => w.endsWith(ext))));
  if (byFile.length > 0) return byFile;
  const languages = directiveLanguages(directive);
  return candidates.filter((tc) => languages.includes(tc));
}

/** "python/", or "the root" for a project at the repository's root. */
function where(c: Candidate): string {
  return c.dir === '' ? 'the root' : `${c.dir}/`;
}

/** The one line a run prints about its environment, e.g. `toolchain python (pyproject.toml, tests/), test command: python3 -m pytest -q`. */
export function environmentLine(opts: {
  toolchain: string | null;
  version?: string;
  evidence: readonly string[];
  testCommand: string;
  named?: boolean;
  /** Why the other candidates were passed over ("node (package.json) has no tests"). */
  passedOver?: readonly string[];
  /** The other projects found (said when none was passed over: they are tried if these tests pass at baseline on a fix). */
  alternatives?: readonly string[];
  /** How the test command was decided, when more than the toolchain's default ("every script of the chain runs"). */
  notes?: readonly string[];
}): string {
  if (opts.toolchain === null) return `your image, test command: ${opts.testCommand}`;
  const why = opts.named ? 'named' : opts.evidence.join(', ');
  const over =
    opts.passedOver && opts.passedOver.length > 0
      ? `; passed over: ${opts.passedOver.join('; ')}`
      : opts.alternatives && opts.alternatives.length > 0
        ? `; other projects, tried if these tests pass at baseline on a fix: ${opts.alternatives.join(', ')}`
        : '';
  const notes = opts.notes && opts.notes.length > 0 ? ` (${opts.notes.join('; ')})` : '';
  return `toolchain ${opts.toolchain}${opts.version ? ` ${opts.version}` : ''}${why ? ` (${why})` : ''}, test command: ${opts.testCommand}${notes}${over}`;
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
