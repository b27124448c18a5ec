// The repository files a failure names, with the lines it names in each (pure).
import type { FailureReport } from './failure-report.js';
import { dirName } from './source-files.js';
import { pathsEndingWith, type TreeIndex } from './tree-index.js';

/** A file of the tree the failure names, and the lines it names in it. */
export interface FailureFile {
  path: string;
  lines: number[];
  /** Order of first mention in the output. */
  order: number;
}

/** More candidates than this for one relative path, and none of them is taken. */
const MAX_AMBIGUOUS = 3;

/**
 * Resolve the output's locations to tree files: exact paths first; else a path that ends the same
 * way, disambiguated for Go's package-relative `abs_test.go:7` by the failing package's import path;
 * unittest ids name their module's file.
 */
export function failureFiles(report: FailureReport, index: TreeIndex): FailureFile[] {
  const byPath = new Map<string, FailureFile>();
  const add = (path: string, line: number | null, order: number): void => {
    let f = byPath.get(path);
    if (!f) {
      f = { path, lines: [], order };
      byPath.set(path, f);
    }
    if (line !== null && line > 0 && !f.lines.includes(line)) f.lines.push(line);
  };
  for (const loc of report.locations) {
    if (index.has(loc.path)) {
      add(loc.path, loc.line, loc.at);
      continue;
    }
    const hits = pathsEndingWith(index, loc.path);
    const chosen = hits.length <= 1 ? hits : disambiguate(hits, report.goPackages);
    if (chosen.length <= MAX_AMBIGUOUS) for (const p of chosen) add(p, loc.line, loc.at);
  }
  let order = Number.MAX_SAFE_INTEGER / 2;
  for (const id of report.pythonModules) {
    const parts = id.split('.');
    for (let n = parts.length; n > 0; n--) {
      const file = `${parts.slice(0, n).join('/')}.py`;
      const hits = index.has(file) ? [file] : pathsEndingWith(index, file);
      if (hits.length === 1) {
        add(hits[0]!, null, order++);
        break;
      }
    }
  }
  return [...byPath.values()].sort((a, b) => a.order - b.order);
}

/** The candidates whose directory shares the most trailing segments with a failing Go package's import path. */
function disambiguate(paths: string[], goPackages: readonly string[]): string[] {
  let best: string[] = [];
  let bestScore = 0;
  for (const p of paths) {
    const dir = dirName(p).split('/').filter(Boolean);
    for (const pkg of goPackages) {
      const segs = pkg.split('/');
      let score = 0;
      while (score < dir.length && score < segs.length && dir[dir.length - 1 - score] === segs[segs.length - 1 - score])
        score++;
      if (score > bestScore) {
        best = [p];
        bestScore = score;
      } else if (score === bestScore && score > 0 && !best.includes(p)) best.push(p);
    }
  }
  if (best.length > 0) return best;
  // a package at the module root: its files sit at the top of the tree
  const top = paths.filter((p) => !p.includes('/'));
  if (top.length === 1 && goPackages.length > 0) return top;
  return paths;
}
