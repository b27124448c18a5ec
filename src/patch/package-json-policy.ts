// package.json judged by its parsed content, before and after a change: the fields that make npm,
// pnpm, yarn or a hook manager run code (scripts, bin, hooks, workspaces, the package manager
// itself), and dependencies that come from anywhere but a registry (a local path, a git URL, a
// tarball, yarn's exec: protocol). A hunk that adds a "pretest" without touching the "scripts"
// line changes the parsed scripts all the same. Pure.

/**
 * Top-level fields compared whole: any change to one is sensitive. Scripts (every lifecycle entry
 * and its pre/post variants run on install and test), bin and directories (commands on PATH),
 * gypfile (node-gyp on install), workspaces (whose packages install with their scripts),
 * packageManager (the package manager that runs), config (read by hook managers such as ghooks),
 * pnpm (its settings decide which dependencies may run build scripts), and hook managers' keys.
 */
export const PACKAGE_JSON_CODE_FIELDS = [
  'scripts',
  'bin',
  'directories',
  'gypfile',
  'workspaces',
  'packageManager',
  'config',
  'pnpm',
  'husky',
  'simple-git-hooks',
  'lint-staged',
  'nano-staged',
  'pre-commit',
  'precommit',
  'pre-push',
  'prepush',
  'gitHooks',
  'ghooks',
] as const;

/** Dependency fields whose entries must stay registry versions (a range, a tag, or an npm: alias of one). */
export const PACKAGE_JSON_DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'overrides',
  'resolutions',
] as const;

// What a registry version looks like: semver ranges and dist-tags (no ':', '/', '#' or '@').
const RANGE = /^[\w.^~<>=|*+ -]*$/;
const ALIAS = /^npm:(?:@[\w.-]+\/)?[\w.-]+(?:@[\w.^~<>=|*+ -]*)?$/;

/**
 * What a change from `before` to `after` (the file's texts; null: absent) does to the fields that
 * run code, one short phrase each (empty: nothing). A text that is not a JSON object on a side
 * that exists counts as a change, since it cannot be judged.
 */
export function packageJsonCodeChanges(before: string | null, after: string | null): string[] {
  const b = before === null ? {} : parseObject(before);
  const a = after === null ? {} : parseObject(after);
  if (b === null || a === null) return [`${b === null ? 'the old' : 'the new'} text is not a JSON object`];
  const out: string[] = [];
  for (const field of PACKAGE_JSON_CODE_FIELDS) {
    const [x, y] = [own(b, field), own(a, field)];
    if (canonical(x) === canonical(y)) continue;
    out.push(`changes "${field}"${detail(x, y)}`);
  }
  for (const field of PACKAGE_JSON_DEPENDENCY_FIELDS) {
    const was = leaves(own(b, field));
    for (const [name, spec] of leaves(own(a, field))) {
      if (was.get(name) === spec || registrySpec(spec)) continue;
      out.push(
        `adds ${JSON.stringify(`${field}.${name}`)} from outside the registry (${JSON.stringify(spec).slice(0, 80)})`,
      );
    }
  }
  return out;
}

/** True for a dependency spec that installs from the registry only. */
export function registrySpec(spec: string): boolean {
  return RANGE.test(spec) || ALIAS.test(spec);
}

function parseObject(text: string): Record<string, unknown> | null {
  let v: unknown;
  try {
    // npm strips a byte order mark before parsing, and so do we
    v = JSON.parse(text.replace(/^\ufeff/, ''));
  } catch {
    return null;
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function own(o: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

// The string leaves of a dependency field by their dotted name (nested overrides included).
function leaves(v: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (x: unknown, name: string): void => {
    if (typeof x === 'string') out.set(name, x);
    else if (typeof x === 'object' && x !== null && !Array.isArray(x))
      for (const [k, e] of Object.entries(x)) walk(e, name === '' ? k : `${name}.${k}`);
  };
  walk(v, '');
  return out;
}

// JSON with object keys sorted: a reordering is no change.
function canonical(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null)
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

// " (adds pretest)" for an object field (or an absent one) whose keys changed, else "".
function detail(before: unknown, after: unknown): string {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!(isObject(before) || before === undefined) || !(isObject(after) || after === undefined)) return '';
  const b = before ?? {};
  const a = after ?? {};
  const added = Object.keys(a).filter((k) => !Object.hasOwn(b, k));
  const changed = Object.keys(a).filter((k) => Object.hasOwn(b, k) && canonical(a[k]) !== canonical(b[k]));
  const removed = Object.keys(b).filter((k) => !Object.hasOwn(a, k));
  const parts = [
    added.length ? `adds ${added.slice(0, 3).join(', ')}` : '',
    changed.length ? `changes ${changed.slice(0, 3).join(', ')}` : '',
    removed.length ? `removes ${removed.slice(0, 3).join(', ')}` : '',
  ].filter((p) => p !== '');
  return parts.length ? ` (${parts.join('; ')})` : '';
}
