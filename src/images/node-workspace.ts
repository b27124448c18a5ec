// A Node.js workspace (pnpm's pnpm-workspace.yaml, npm's and yarn's `workspaces`): its members, and
// the test command when the root has no test script of its own: the member the directive points
// into (`cd library && pnpm test`), else every member's tests through the root's recursive form.
// Pure: the caller lists the tree and reads the files.
import { SAFE_PROJECT_DIR } from './project-candidates.js';

/** A member of the workspace: its directory and whether its package.json has a test script. */
export interface WorkspaceMember {
  dir: string;
  /** Its package name (what a directive may call it). */
  name: string | null;
  hasTests: boolean;
}

/** The files workspace detection reads: the root's package.json and pnpm-workspace.yaml, and each member's package.json. */
export interface WorkspaceFacts {
  rootPackageJson: string | undefined;
  pnpmWorkspaceYaml: string | undefined;
  /** Every tree path (members are directories holding a package.json that a pattern matches). */
  paths: readonly string[];
  /** The package.json text of each member directory (see memberDirs), read by the caller. */
  memberPackageJson: ReadonlyMap<string, string>;
}

/** The most member directories read. */
export const MAX_MEMBERS = 200;

/** The member patterns the root declares (pnpm-workspace.yaml's `packages`, else package.json's `workspaces`); [] when it is no workspace. */
export function workspacePatterns(
  rootPackageJson: string | undefined,
  pnpmWorkspaceYaml: string | undefined,
): string[] {
  if (pnpmWorkspaceYaml !== undefined) return yamlPackages(pnpmWorkspaceYaml);
  const pkg = parseObject(rootPackageJson);
  const ws = pkg?.['workspaces'];
  const list = Array.isArray(ws)
    ? ws
    : typeof ws === 'object' && ws !== null && Array.isArray((ws as Record<string, unknown>)['packages'])
      ? ((ws as Record<string, unknown>)['packages'] as unknown[])
      : [];
  return list.filter((p): p is string => typeof p === 'string');
}

/** The member directories the patterns match: directories with a package.json, plain words only, at most MAX_MEMBERS. */
export function memberDirs(patterns: readonly string[], paths: readonly string[]): string[] {
  const include = patterns.filter((p) => !p.startsWith('!')).map(globRegex);
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => globRegex(p.slice(1)));
  const out: string[] = [];
  for (const p of paths) {
    if (!p.endsWith('/package.json') || /(^|\/)node_modules\//.test(p)) continue;
    const dir = p.slice(0, -'/package.json'.length);
    if (!SAFE_PROJECT_DIR.test(dir) || !include.some((re) => re.test(dir)) || exclude.some((re) => re.test(dir)))
      continue;
    out.push(dir);
    if (out.length >= MAX_MEMBERS) break;
  }
  return out.sort();
}

/** The workspace's members, read from their package.json texts. */
export function workspaceMembers(facts: WorkspaceFacts): WorkspaceMember[] {
  const dirs = memberDirs(workspacePatterns(facts.rootPackageJson, facts.pnpmWorkspaceYaml), facts.paths);
  return dirs.map((dir) => {
    const pkg = parseObject(facts.memberPackageJson.get(`${dir}/package.json`));
    const name = typeof pkg?.['name'] === 'string' ? pkg['name'] : null;
    return { dir, name, hasTests: realTestScript(pkg) };
  });
}

/** The package manager's words for one package's tests and for every member's. */
const RECURSIVE: Readonly<Record<string, string>> = {
  pnpm: 'pnpm -r test',
  npm: 'npm test --workspaces --if-present',
  'yarn classic': 'yarn workspaces run test',
  'yarn berry': 'yarn workspaces foreach --all run test',
};

/**
 * The test command of a workspace whose root has no test script: the member the directive points
 * into (a path under its directory, or its package name), with its own `<pm> test` in its
 * directory; else every member's tests through the root. Null when the root has a test script of
 * its own (that decides), or it is no workspace, or no member has tests.
 */
export function workspaceTestCommand(
  facts: WorkspaceFacts,
  pm: { name: string; flavour: string | null; testCommand: string },
  directive: string,
): { command: string; member: string | null; why: string } | null {
  if (realTestScript(parseObject(facts.rootPackageJson))) return null;
  const members = workspaceMembers(facts).filter((m) => m.hasTests);
  if (members.length === 0) return null;
  const pointed = members.filter((m) => pointsInto(directive, m));
  if (pointed.length === 1) {
    const m = pointed[0]!;
    return {
      command: `cd ${m.dir} && ${pm.testCommand}`,
      member: m.dir,
      why: `the workspace root has no test script; the directive points at its member ${m.dir}/`,
    };
  }
  if (members.length === 1) {
    const m = members[0]!;
    return {
      command: `cd ${m.dir} && ${pm.testCommand}`,
      member: m.dir,
      why: `the workspace root has no test script; ${m.dir}/ is its one member with tests`,
    };
  }
  const key = pm.name === 'yarn' ? `yarn ${pm.flavour ?? 'classic'}` : pm.name;
  const command = RECURSIVE[key] ?? RECURSIVE['npm']!;
  return { command, member: null, why: `the workspace root has no test script; every member's tests run` };
}

/** The directive names a path under the member's directory, or its package name. */
function pointsInto(directive: string, m: WorkspaceMember): boolean {
  const words = directive.match(/[@\w][\w./@-]*/g) ?? [];
  return words.some((raw) => {
    const w = raw.replace(/[./]+$/, '');
    return w.startsWith(`${m.dir}/`) || w === m.dir || (m.name !== null && w === m.name);
  });
}

/** A test script that is more than npm's placeholder. */
function realTestScript(pkg: Record<string, unknown> | null): boolean {
  const scripts = pkg?.['scripts'];
  if (typeof scripts !== 'object' || scripts === null) return false;
  const test = (scripts as Record<string, unknown>)['test'];
  return typeof test === 'string' && test.trim() !== '' && !/no test specified/.test(test);
}

function parseObject(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The items of pnpm-workspace.yaml's top-level `packages:` list (quoted or bare; flow lists too). */
function yamlPackages(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  const start = lines.findIndex((l) => /^packages\s*:/.test(l));
  if (start < 0) return [];
  const inline = /^packages\s*:\s*\[(.*)\]\s*$/.exec(lines[start]!);
  if (inline) return inline[1]!.split(',').map(unquote).filter(Boolean);
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const item = /^\s+-\s*(.+?)\s*(?:#.*)?$/.exec(line);
    if (item) out.push(unquote(item[1]!));
  }
  return out.filter(Boolean);
}

function unquote(s: string): string {
  return s.trim().replace(/^(['"])(.*)\1$/, '$2');
}

/** A workspace glob (`packages/*`, `apps/**`, `library`) as a regex over directory paths. */
function globRegex(glob: string): RegExp {
  const g = glob.replace(/^\.\//, '').replace(/\/+$/, '');
  let re = '';
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === '*' && g[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
