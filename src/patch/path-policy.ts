// The path policy: edits that change how the repository is built, tested or checked out by others
// (CI configuration, git attributes and submodules, package scripts) are refused unless the user
// allows them, and when allowed they are always flagged for review; and no patch may be larger
// than [policy] max_patch_bytes. Pure: the caller reads the files' current content.

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

/** What the policy says about one patch. */
export type PolicyVerdict =
  | { kind: 'clean' }
  /** Allowed by `allow_sensitive`: apply, and flag every edit for review. */
  | { kind: 'flagged'; edits: SensitiveEdit[]; review: string[] }
  /** Refused; `reason` is what the model is told. */
  | { kind: 'refused'; edits: SensitiveEdit[]; reason: string };

/** A file a patch touches (and the path it came from, for renames and copies). */
export interface PolicyFile {
  path: string;
  from?: string;
}

/** package.json files whose "scripts" an edit may change: their current content is needed. */
export function policyReads(files: readonly PolicyFile[]): string[] {
  return [...new Set(files.flatMap((f) => [f.path, ...(f.from ? [f.from] : [])]).filter(isPackageJson))];
}

/**
 * Judge a patch: which of its files are sensitive (a glob of `policy.sensitive_paths` matches the
 * path or the path it was renamed from, or it changes a package.json's "scripts"), and whether
 * the patch may go on. `patchText` is the patch as recorded (a diff or SEARCH/REPLACE blocks);
 * `current` holds the current text of the package.json files policyReads named (absent: new).
 */
export function judgePatch(
  files: readonly PolicyFile[],
  patchText: string,
  current: ReadonlyMap<string, string>,
  policy: PathPolicy,
): PolicyVerdict {
  const globs = policy.sensitive_paths.map((g) => ({ glob: g, re: globToRegExp(g) }));
  const edits: SensitiveEdit[] = [];
  for (const f of files) {
    const paths = [f.path, ...(f.from && f.from !== f.path ? [f.from] : [])];
    const hit = globs.find((g) => paths.some((p) => g.re.test(p)));
    if (hit) {
      edits.push({ path: f.path, why: `matches the sensitive path ${JSON.stringify(hit.glob)}` });
      continue;
    }
    const pkg = paths.find(isPackageJson);
    if (pkg !== undefined && changesScripts(patchText, current.get(pkg))) {
      edits.push({ path: f.path, why: 'changes package scripts ("scripts" in package.json run on install and test)' });
    }
  }
  if (edits.length === 0) return { kind: 'clean' };
  const review = edits.map((e) => `${e.path}: ${e.why}`);
  if (policy.allow_sensitive) return { kind: 'flagged', edits, review };
  return {
    kind: 'refused',
    edits,
    reason:
      `the patch edits ${edits.length === 1 ? 'a sensitive file' : 'sensitive files'} (${review.join('; ')}); ` +
      'CI configuration, .gitattributes, .gitmodules and package scripts may not be changed by this run. ' +
      'Leave those files alone and change only the code and tests',
  };
}

/** A glob as a RegExp over repo paths: `**` any number of directories, `*` and `?` within one name. */
export function globToRegExp(glob: string): RegExp {
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
  return new RegExp(`^${re}$`);
}

function isPackageJson(path: string): boolean {
  return path === 'package.json' || path.endsWith('/package.json');
}

/**
 * Whether a patch may change "scripts" of a package.json, judged from the patch text alone and
 * the file's current content: the patch mentions a "scripts" key, or one of its lines (context,
 * removed, SEARCH) is one of the current script entries. Conservative: a package.json that is not
 * valid JSON counts as changed.
 */
export function changesScripts(patchText: string, currentText: string | undefined): boolean {
  if (/"scripts"\s*:/.test(patchText)) return true;
  if (currentText === undefined) return false;
  let scripts: unknown;
  try {
    scripts = (JSON.parse(currentText) as Record<string, unknown> | null)?.['scripts'];
  } catch {
    return true;
  }
  if (typeof scripts !== 'object' || scripts === null) return false;
  const entries = new Set(Object.entries(scripts).map(([k, v]) => squash(`${JSON.stringify(k)}:${JSON.stringify(v)}`)));
  for (const line of patchText.split('\n')) {
    if (entries.has(squash(line)) || entries.has(squash(line.slice(1)))) return true;
  }
  return false;
}

/** A line without whitespace or a trailing comma, so formatting differences do not matter. */
function squash(line: string): string {
  return line.replace(/\s+/g, '').replace(/,$/, '');
}

/** Reads the current text of repo paths (a path missing from the result does not exist yet). */
export type ReadCurrent = (paths: string[]) => Promise<ReadonlyMap<string, string>>;

/** The size limit, then judgePatch for an extracted patch, reading the package.json files it needs through `read`. */
export async function judgeExtracted(
  interp: { files: readonly PolicyFile[]; patch: string },
  policy: PathPolicy,
  read: ReadCurrent,
): Promise<PolicyVerdict> {
  const size = Buffer.byteLength(interp.patch, 'utf8');
  if (size > policy.max_patch_bytes) {
    return {
      kind: 'refused',
      edits: [],
      reason: `the patch is ${size} bytes, over the ${policy.max_patch_bytes}-byte limit ([policy] max_patch_bytes); send a smaller change`,
    };
  }
  const wanted = policyReads(interp.files);
  const current = wanted.length ? await read(wanted) : new Map<string, string>();
  return judgePatch(interp.files, interp.patch, current, policy);
}
