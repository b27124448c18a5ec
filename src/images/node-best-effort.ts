// Node's offline best effort: when the package manager or the install failed and no package
// registry answers, setup goes on without the dependencies (none can be had), naming each one it
// skips in one line (with what it is, for the tools tests never need). Whether the tests can run
// without them is decided on the host (see test-needs.ts).

/** What kind of tool a package is, for the skip line; only packages tests do not import. */
export const JS_TOOL_KINDS: Readonly<Record<string, string>> = {
  eslint: 'a linter',
  tslint: 'a linter',
  stylelint: 'a linter',
  prettier: 'a formatter',
  typescript: 'a type checker',
  husky: 'a git hook manager',
  'lint-staged': 'a git hook runner',
  rollup: 'a build tool',
  webpack: 'a build tool',
  'webpack-cli': 'a build tool',
  esbuild: 'a build tool',
  tsup: 'a build tool',
  parcel: 'a build tool',
  'npm-run-all': 'a script runner',
  'npm-run-all2': 'a script runner',
  concurrently: 'a script runner',
  rimraf: 'a file remover',
  'semantic-release': 'a release tool',
  'release-it': 'a release tool',
  '@changesets/cli': 'a release tool',
  typedoc: 'a documentation tool',
};

/** Name prefixes of tool families (`eslint-plugin-x`, `@types/node`, `@typescript-eslint/parser`). */
const JS_TOOL_PREFIXES: readonly (readonly [string, string])[] = [
  ['eslint-', 'a linter plugin'],
  ['@eslint/', 'a linter plugin'],
  ['@typescript-eslint/', 'a linter plugin'],
  ['prettier-plugin-', 'a formatter plugin'],
  ['@types/', 'type definitions'],
  ['@commitlint/', 'a commit message linter'],
  ['@rollup/', 'a build tool plugin'],
];

/** What a package is, when it is one of the tools tests never need; null otherwise. */
export function jsToolKind(name: string): string | null {
  if (Object.hasOwn(JS_TOOL_KINDS, name)) return JS_TOOL_KINDS[name]!;
  return JS_TOOL_PREFIXES.find(([p]) => name.startsWith(p))?.[1] ?? null;
}

/** The step's script (node, in the project's directory): one skip line per dependency of package.json; exits 0. */
export const NODE_BEST_EFFORT = `const fs = require('fs');
const kinds = ${JSON.stringify(JS_TOOL_KINDS)};
const prefixes = ${JSON.stringify(JS_TOOL_PREFIXES)};
const kind = (n) => kinds[n] || (prefixes.find(([p]) => n.startsWith(p)) || [])[1] || null;
let pkg = {};
try { pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')); } catch {}
const seen = new Set();
for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
  const deps = pkg && typeof pkg[field] === 'object' && pkg[field] ? pkg[field] : {};
  for (const name of Object.keys(deps)) {
    if (seen.has(name) || !/^(@[a-z0-9][a-z0-9._-]*\\/)?[a-z0-9][a-z0-9._-]*$/i.test(name)) continue;
    seen.add(name);
    const k = kind(name);
    console.log('hammer-box: skipped ' + name + (k ? ' (' + k + ')' : '') + ': not available without a package registry');
  }
}
`;

/**
 * Shell lines running `install` (the package manager and the install, a script of setup's own)
 * when the registry answers, and otherwise the best effort (no install could get anything, and
 * waiting out its retries would take minutes).
 */
export function nodeInstallLines(setupDir: string, registry: string, install: string): string[] {
  const q = (v: string): string => `'${v.replace(/'/g, `'\\''`)}'`;
  return [
    `if npm ping --registry ${q(registry)} --fetch-retries=0 --fetch-timeout=20000 >/dev/null 2>&1; then`,
    `  /bin/sh -e ${install}`,
    'else',
    `  echo "hammer-box: no package registry is reachable (${registry.replace(/["$`\\]/g, '')}): setup goes on without the dependencies"`,
    `  node ${setupDir}/node-best-effort.js`,
    'fi',
  ];
}
