// After an offline setup's best effort: what it skipped, said in a line, and SETUP_FAILED when the
// tests cannot run without it (their runner, or a package a test file imports), naming each.
import { HammerError } from '../errors.js';
import { jsToolKind } from '../images/node-best-effort.js';
import { toolKind } from '../images/python-best-effort.js';
import {
  jsTestFiles,
  localModules,
  nodeTestNeeds,
  PYTHON_TEST_FILE,
  pythonImports,
  pythonTestFiles,
  testNeeds,
  type TestNeeds,
} from '../images/test-needs.js';
import type { RepoEnvironment } from './repo-environment.js';

/** "flake8 (a linter)", or the bare name of a package that is not a known tool. */
export function describeSkipped(name: string): string {
  const kind = toolKind(name) ?? jsToolKind(name);
  return kind === null ? name : `${name} (${kind})`;
}

/**
 * SETUP_FAILED when the tests cannot run without what an offline setup skipped: the test runner,
 * or a package a test file imports (naming both). Anything else skipped (linters, formatters,
 * build tools, packages no test imports) lets the run go on.
 */
export async function assertTestsCanRun(
  skipped: readonly string[],
  repoEnv: RepoEnvironment,
  read: (paths: readonly string[]) => Promise<Map<string, string>>,
): Promise<void> {
  const needs = await needsOf(skipped, repoEnv, read);
  if (needs === null) return;
  const missing = [
    ...(needs.runner === null ? [] : [`the test runner ${needs.runner}`]),
    ...needs.imports.map((i) => `${i.dist} (${i.file} imports ${i.module})`),
  ];
  if (missing.length === 0) return;
  const index = repoEnv.toolchain === 'node' ? 'package registry' : 'package index';
  throw new HammerError(
    'SETUP_FAILED',
    `no ${index} is reachable, and the tests cannot run without what setup could not install: ${missing.join('; ')}`,
    {
      hint: `make a ${index} reachable from setup (HTTPS_PROXY, [env] allow_hosts or [env] npm_registry for a mirror), or run in an image that has these packages (--image with --test-command)`,
    },
  );
}

/** What the tests of a python or node project need of `skipped`; null for other toolchains. */
async function needsOf(
  skipped: readonly string[],
  repoEnv: RepoEnvironment,
  read: (paths: readonly string[]) => Promise<Map<string, string>>,
): Promise<TestNeeds | null> {
  const prefix = repoEnv.dir === '' ? '' : `${repoEnv.dir}/`;
  const mine = repoEnv.treePaths.filter((p) => p.startsWith(prefix));
  if (repoEnv.toolchain === 'python') {
    const files = pythonTestFiles(mine);
    const tests = files.length > 0 ? await read(files) : new Map<string, string>();
    const local = localModules(repoEnv.treePaths);
    // the repository's own packages the tests import are imported with them: their imports count too
    const sources = projectSources(mine, prefix, ownImports(tests, local));
    return testNeeds({
      skipped,
      testCommand: repoEnv.testCommand.replace(/^cd \S+ && /, ''),
      testFiles: new Map([...tests, ...(sources.length > 0 ? await read(sources) : new Map<string, string>())]),
      local,
    });
  }
  if (repoEnv.toolchain === 'node') {
    const files = jsTestFiles(mine);
    const texts = await read([`${prefix}package.json`, ...files]);
    const manifest = texts.get(`${prefix}package.json`);
    texts.delete(`${prefix}package.json`);
    return nodeTestNeeds({ skipped, testScript: testScriptOf(manifest), testFiles: texts });
  }
  return null;
}

/** The most source files of the project's own packages read for their imports. */
const MAX_SOURCES = 500;

/** The repository's own modules the test files import (`calc` of `from calc import total`). */
function ownImports(tests: ReadonlyMap<string, string>, local: ReadonlySet<string>): Set<string> {
  return new Set([...tests.values()].flatMap((text) => pythonImports(text)).filter((m) => local.has(m)));
}

/** The Python files of those modules (`calc.py`, `calc/**`, `src/calc/**`), tests left out. */
function projectSources(paths: readonly string[], prefix: string, modules: ReadonlySet<string>): string[] {
  if (modules.size === 0) return [];
  return paths
    .filter((p) => {
      if (!p.endsWith('.py') || PYTHON_TEST_FILE.test(p)) return false;
      const rel = p.slice(prefix.length).replace(/^src\//, '');
      const top = rel.split('/')[0]!.replace(/\.py$/, '');
      return modules.has(top);
    })
    .slice(0, MAX_SOURCES);
}

/** The test script of a package.json text, or null. */
function testScriptOf(text: string | undefined): string | null {
  try {
    const pkg: unknown = JSON.parse(text ?? '');
    const scripts = typeof pkg === 'object' && pkg !== null ? (pkg as Record<string, unknown>)['scripts'] : null;
    const test = typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>)['test'] : null;
    return typeof test === 'string' ? test : null;
  } catch {
    return null;
  }
}
