// The selection the prompt used before src/context (kept for `make bench BENCH=context` to compare):
// files named in the directive, in failing test output, changed so far; heads of files cut at file_max_bytes.

/**
 * A path of the repository's tree with its size. src/git's TreeEntry fits; entries whose kind is
 * symlink or submodule are never picked (a symlink's target never reaches the prompt).
 */
export interface ContextTreeEntry {
  path: string;
  size: number;
  kind?: string;
}

/** Why a file was picked, in priority order. */
export type ContextReason = 'directive' | 'test_output' | 'changed';

/** A file to show, why, and how many bytes of it to read (its size, or less when truncated). */
export interface ContextSelection {
  path: string;
  reason: ContextReason;
  readBytes: number;
  truncated: boolean;
}

export interface SelectContextInput {
  directive: string;
  /** Output of the last failing test run ('' when it passed). */
  testOutput: string;
  /** Files the patches so far have touched. */
  changedFiles: readonly string[];
  tree: readonly ContextTreeEntry[];
  budget: {
    /** Total characters of file content for the prompt. */
    chars: number;
    /** The most bytes shown of one file. */
    fileMaxBytes: number;
  };
  /** The sandbox's workspace path, stripped from absolute paths in test output (default /workspace). */
  workdir?: string;
}

// Characters each shown file costs beyond its content (heading, fence, truncation marker).
const PER_FILE_OVERHEAD = 80;
// The smallest useful slice of a file; a file that cannot get this much is left out.
const MIN_SLICE = 256;

/** Pick the files the prompt shows: named in the directive, then in failing test output, then already changed. */
export function selectContextFiles(input: SelectContextInput): ContextSelection[] {
  const files = input.tree.filter((e) => e.kind !== 'symlink' && e.kind !== 'submodule');
  const byPath = new Map(files.map((e) => [e.path, e]));
  const byBase = new Map<string, string[]>();
  for (const e of files) {
    const base = e.path.slice(e.path.lastIndexOf('/') + 1);
    byBase.set(base, [...(byBase.get(base) ?? []), e.path]);
  }
  const workdir = (input.workdir ?? '/workspace').replace(/\/+$/, '');
  const candidates: { path: string; reason: ContextReason }[] = [];
  for (const p of pathsInDirective(input.directive, byPath, byBase)) candidates.push({ path: p, reason: 'directive' });
  for (const p of pathsInTestOutput(input.testOutput, workdir)) {
    if (byPath.has(p)) candidates.push({ path: p, reason: 'test_output' });
  }
  for (const p of input.changedFiles) if (byPath.has(p)) candidates.push({ path: p, reason: 'changed' });

  const picked: ContextSelection[] = [];
  const seen = new Set<string>();
  let left = input.budget.chars;
  for (const c of candidates) {
    if (seen.has(c.path)) continue;
    seen.add(c.path);
    const size = byPath.get(c.path)!.size;
    const room = left - PER_FILE_OVERHEAD;
    const readBytes = Math.min(size, input.budget.fileMaxBytes, Math.max(0, room));
    if (readBytes < Math.min(size, MIN_SLICE)) continue;
    picked.push({ path: c.path, reason: c.reason, readBytes, truncated: readBytes < size });
    left -= readBytes + PER_FILE_OVERHEAD;
  }
  return picked;
}

/** Tree paths the directive names: exactly, as ./path, or by a base name that is unique in the tree. */
function pathsInDirective(
  directive: string,
  byPath: Map<string, ContextTreeEntry>,
  byBase: Map<string, string[]>,
): string[] {
  const out: string[] = [];
  for (const m of directive.matchAll(/[A-Za-z0-9_@+~./-]+/g)) {
    const token = m[0].replace(/[.,:;]+$/, '');
    const forms = [token, token.replace(/^\.\//, ''), token.replace(/^[ab]\//, '')];
    const exact = forms.find((f) => byPath.has(f));
    if (exact !== undefined) out.push(exact);
    else if (!token.includes('/') && token.includes('.')) {
      const hits = byBase.get(token) ?? [];
      if (hits.length === 1) out.push(hits[0]!);
    }
  }
  return out;
}

/**
 * Repo-relative paths named in test output, in order of appearance: Python tracebacks
 * (`File "x.py", line N`), pytest node ids (`path.py::test`), and `path:12:` locations (pytest
 * short tracebacks, compilers, linters, stack traces).
 */
export function pathsInTestOutput(output: string, workdir = '/workspace'): string[] {
  const found: { at: number; path: string }[] = [];
  const patterns = [
    /File "([^"\n]+)", line \d+/g,
    /(?:^|[\s(])([^\s:()"']+\.[A-Za-z0-9]+)::[A-Za-z_]/gm,
    /(?:^|[\s(])([^\s:()"']+\.[A-Za-z0-9]+):\d+(?::\d+)?:?/gm,
  ];
  for (const re of patterns) {
    for (const m of output.matchAll(re)) found.push({ at: m.index, path: m[1]! });
  }
  found.sort((a, b) => a.at - b.at);
  const out: string[] = [];
  for (const { path } of found) {
    let p = path;
    if (p.startsWith(`${workdir}/`)) p = p.slice(workdir.length + 1);
    p = p.replace(/^\.\//, '');
    if (p.startsWith('/') || p.split('/').includes('..')) continue;
    if (!out.includes(p)) out.push(p);
  }
  return out;
}
