// The path policy: which repository paths change how the code is built, tested, installed or
// checked out by others (CI configuration, hook managers, install triggers, git's own files), and
// the size limit of a patch. Paths are matched by what a checkout would make of them: in any case,
// without the trailing dots and spaces and the ignorable characters Windows and macOS drop, so
// `.GitModules` and `.gitattributes.` are what they are on those systems. Pure.

/** The `[policy]` config: globs of sensitive paths, whether edits to them may be applied, the largest patch. */
export interface PathPolicy {
  sensitive_paths: readonly string[];
  allow_sensitive: boolean;
  max_patch_bytes: number;
}

/** One sensitive edit: the path and why it needs a human. */
export interface SensitiveEdit {
  path: string;
  why: string;
}

/** A compiled `sensitive_paths` list: the first glob that matches a path, or null. */
export type SensitiveMatcher = (path: string) => string | null;

/** Compile `policy.sensitive_paths` into a matcher over normalised paths (see normalPolicyPath). */
export function sensitiveMatcher(globs: readonly string[]): SensitiveMatcher {
  const compiled = globs.map((g) => ({ glob: g, re: globToRegExp(normalPolicyPath(g), 'i') }));
  return (path) => {
    const p = normalPolicyPath(path);
    return compiled.find((c) => c.re.test(p))?.glob ?? null;
  };
}

/** A glob as a RegExp over repo paths: `**` any number of directories, `*` and `?` within one name. */
export function globToRegExp(glob: string, flags = ''): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, flags);
}

// Code points HFS+ ignores in names (and so does git's own check of .git and .gitmodules).
const IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;
// The 8.3 short names NTFS gives git's own files.
const SHORT_NAMES: [RegExp, string][] = [
  [/^gitmod~\d+$/, '.gitmodules'],
  [/^gitatt~\d+$/, '.gitattributes'],
];

/**
 * A path as a case-insensitive, HFS+ or NTFS checkout would name it: lower case, ignorable
 * characters dropped, trailing dots and spaces of each name dropped, git's short names expanded.
 */
export function normalPolicyPath(path: string): string {
  return path
    .replace(IGNORABLE, '')
    .toLowerCase()
    .split('/')
    .map((seg) => {
      const s = seg === '.' || seg === '..' || seg.includes('*') ? seg : seg.replace(/[. ]+$/, '');
      return SHORT_NAMES.find(([re]) => re.test(s))?.[1] ?? s;
    })
    .join('/');
}

/** True for a path npm, pnpm and yarn read as a package manifest (in any case, see normalPolicyPath). */
export function isPackageJson(path: string): boolean {
  const p = normalPolicyPath(path);
  return p === 'package.json' || p.endsWith('/package.json');
}

/** Why a patch is over `[policy] max_patch_bytes` (null when it is not): told to the model. */
export function patchSizeRefusal(patch: string, policy: Pick<PathPolicy, 'max_patch_bytes'>): string | null {
  const size = Buffer.byteLength(patch, 'utf8');
  if (size <= policy.max_patch_bytes) return null;
  return `the patch is ${size} bytes, over the ${policy.max_patch_bytes}-byte limit ([policy] max_patch_bytes); send a smaller change`;
}
