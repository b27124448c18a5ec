// Python's default setup, in documented steps: (1) pip install as pip does by default (build
// isolation, the test extras and dependency groups) from the index; (2) when that fails, the same
// offline, built with the Debian build backends the python image carries; (3) for a project that
// still cannot be installed, its test dependencies only, with its source root on the path. What
// to install is read on the host from the base commit (pyproject.toml), so the script is pure data.
import { parse } from 'smol-toml';
import { bestEffortVersion } from './python-best-effort.js';

/** What python setup installs, decided from the base tree. */
export interface PythonPlan {
  /** Root requirements files (installed instead of the project when present). */
  requirements: string[];
  /** True when the repository is a project pip can install (pyproject.toml with a build system or [project], setup.py, setup.cfg). */
  project: boolean;
  /** Test extras of the project (`[test]`), when it declares them. */
  extras: string[];
  /** Requirement strings of its test dependency groups (PEP 735), include-group resolved. */
  groups: string[];
  /** The project's dependencies plus its test extras and groups: what step 3 installs. */
  testDeps: string[];
  /** The directory that holds the project's packages when it is not the root ('src'), put on the path in step 3. */
  sourceRoot: string | null;
}

/** Extras and groups taken as the test dependencies, in order of preference; `dev` only when none of these exists. */
const TEST_NAMES = ['test', 'tests', 'testing'];

/** A requirement string pip may read from a requirements file as one requirement (never an option line). */
const SAFE_REQUIREMENT = /^[A-Za-z0-9][^\r\n]*$/;
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Read the plan from the root file names, every path, and pyproject.toml's text (when present). */
export function planPython(
  rootNames: readonly string[],
  allPaths: readonly string[],
  pyproject: string | undefined,
  requirements: readonly string[],
): PythonPlan {
  const doc = pyproject === undefined ? {} : parseToml(pyproject);
  const project = table(doc['project']);
  const declared = pyproject !== undefined && (project !== undefined || table(doc['build-system']) !== undefined);
  const isProject = declared || rootNames.includes('setup.py') || rootNames.includes('setup.cfg');
  const optional = table(project?.['optional-dependencies']) ?? {};
  const extras = pick(Object.keys(optional).filter((k) => SAFE_NAME.test(k)));
  const groupTable = table(doc['dependency-groups']) ?? {};
  const groupNames = pick(Object.keys(groupTable));
  const groups = groupNames.flatMap((g) => resolveGroup(groupTable, g, new Set()));
  const deps = strings(project?.['dependencies']);
  const extraDeps = extras.flatMap((e) => strings(optional[e]));
  const testDeps = unique([...deps, ...extraDeps, ...groups]).filter((r) => SAFE_REQUIREMENT.test(r));
  const srcLayout = allPaths.some((p) => /^src\/[^/]+(\/__init__\.py|\.py)$/.test(p));
  return {
    requirements: [...requirements],
    project: isProject,
    extras,
    groups: unique(groups).filter((r) => SAFE_REQUIREMENT.test(r)),
    testDeps,
    sourceRoot: srcLayout ? 'src' : null,
  };
}

/** The command line the first step runs (what a user would type), for labels and messages. */
export function pythonCommand(plan: PythonPlan): string {
  return `python3 -m pip install ${pipTargets(plan).join(' ')}`;
}

function pipTargets(plan: PythonPlan): string[] {
  if (plan.requirements.length > 0) return plan.requirements.flatMap((r) => ['-r', r]);
  return ['-e', plan.extras.length > 0 ? `'.[${plan.extras.join(',')}]'` : '.'];
}

/** The step names, as the script announces them and SETUP_FAILED reports them. */
export const PYTHON_STEPS = [
  'from the index, with build isolation',
  "offline, with Debian's build backends",
  'test dependencies only, the sources on the path',
] as const;

/** The last step, run only when no index answers and every step before it failed. */
export const BEST_EFFORT_STEP = 'offline, best effort: what the image has, the rest skipped';

/** Shell lines running the steps in `workdir` (the project's directory) with the venv active; `dir` holds setup's own files. */
export function pythonSteps(plan: PythonPlan, dir: string, venvSite: string, workdir = '/workspace'): string[] {
  const q = shellQuote;
  const targets = pipTargets(plan).join(' ');
  const groupsFile = `${dir}/groups.txt`;
  const depsFile = `${dir}/test-deps.txt`;
  const withGroups = plan.groups.length > 0 ? ` -r ${groupsFile}` : '';
  const before = plan.project && plan.requirements.length === 0 ? 3 : 2;
  const steps = before + 1;
  const name = (n: number): string => (n > before ? BEST_EFFORT_STEP : PYTHON_STEPS[n - 1]!);
  const announce = (n: number): string => `echo "hammer-box: setup step ${n} of ${steps}: ${name(n)}"`;
  const lines = [
    `printf '%s\\n' ${plan.groups.map(q).join(' ')} > ${groupsFile}`,
    `printf '%s\\n' ${plan.testDeps.map(q).join(' ')} > ${depsFile}`,
    'hb_done=0',
    `if python3 ${dir}/probe-index.py; then hb_online=1; else hb_online=0; fi`,
    announce(1),
    'if [ "$hb_online" = 1 ]; then',
    `  if python3 -m pip install ${targets}${withGroups}; then hb_done=1; echo "hammer-box: setup step 1 succeeded"; else echo "hammer-box: setup step 1 failed"; fi`,
    'else',
    '  echo "hammer-box: setup step 1 skipped: no package index is reachable"',
    'fi',
    'if [ "$hb_done" = 0 ]; then',
    `  ${announce(2)}`,
    `  if python3 -m pip install --no-build-isolation --no-index ${targets}${withGroups}; then hb_done=2; echo "hammer-box: setup step 2 succeeded"; else echo "hammer-box: setup step 2 failed"; fi`,
    'fi',
  ];
  if (before === 3) {
    const pth = plan.sourceRoot ? `echo ${workdir}/${plan.sourceRoot} > ${venvSite}/hammer-box-sources.pth` : 'true';
    lines.push(
      'if [ "$hb_done" = 0 ]; then',
      `  ${announce(3)}`,
      '  if [ "$hb_online" = 1 ]; then hb_index=; else hb_index=--no-index; fi',
      `  if { [ ! -s ${depsFile} ] || [ "$(cat ${depsFile})" = "" ] || python3 -m pip install $hb_index -r ${depsFile}; } && ${pth}; then`,
      `    hb_done=3; echo "hammer-box: setup step 3 succeeded: the project itself is not installed; its sources are used from ${workdir}"`,
      '  else echo "hammer-box: setup step 3 failed"; fi',
      'fi',
    );
  }
  // offline, what every step before could not have is skipped (one line each); the host decides
  // whether the tests can run without it
  const bestEffort = [
    `python3 -u ${dir}/best-effort.py`,
    ...(plan.requirements.length > 0 ? ['--requirements', ...plan.requirements.map(q)] : []),
    ...(plan.requirements.length === 0 && plan.project ? ['--project', '--deps', depsFile] : []),
    ...(plan.requirements.length > 0 && plan.groups.length > 0 ? ['--deps', groupsFile] : []),
    ...(plan.sourceRoot ? ['--source-root', q(plan.sourceRoot)] : []),
  ].join(' ');
  lines.push(
    'if [ "$hb_done" = 0 ] && [ "$hb_online" = 0 ]; then',
    `  ${announce(steps)}`,
    `  # best-effort.py ${bestEffortVersion()}`,
    `  if ${bestEffort}; then hb_done=${steps}; echo "hammer-box: setup step ${steps} succeeded"; else echo "hammer-box: setup step ${steps} failed"; fi`,
    'fi',
    '[ "$hb_done" != 0 ] || exit 1',
  );
  return lines;
}

/** A Python script that exits 0 when the index answers (through the proxy), else prints why and exits 1. */
export const PROBE_INDEX = `import os, sys, urllib.request
url = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/") + "/pip/"
try:
    urllib.request.urlopen(url, timeout=20).close()
except Exception as e:
    print(f"hammer-box: the package index {url} is not reachable: {e}")
    sys.exit(1)
`;

function parseToml(text: string): Record<string, unknown> {
  try {
    return parse(text);
  } catch {
    return {}; // pip reports a broken pyproject.toml itself, in the step that reads it
  }
}

function table(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').map((s) => s.trim()) : [];
}

function pick(names: string[]): string[] {
  const test = names.filter((n) => TEST_NAMES.includes(n.toLowerCase()));
  if (test.length > 0) return test.sort();
  return names.filter((n) => n.toLowerCase() === 'dev');
}

function resolveGroup(groups: Record<string, unknown>, name: string, seen: Set<string>): string[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const out: string[] = [];
  for (const item of Array.isArray(groups[name]) ? (groups[name] as unknown[]) : []) {
    if (typeof item === 'string') out.push(item.trim());
    else {
      const inc = table(item)?.['include-group'];
      if (typeof inc === 'string') out.push(...resolveGroup(groups, inc, seen));
    }
  }
  return out;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

/** Quote a value for POSIX sh. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
