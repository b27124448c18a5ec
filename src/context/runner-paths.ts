// How a data-driven suite's runner finds the code it runs for a data file (pure): the path patterns its
// code builds (`path.join(__dirname, '../../components', 'prism-' + name + '.js')`, `` `lexers/${id}.py` ``,
// `f"{name}_rule.py"`), filled in with the failing data's names (its directories, its title's quoted
// parts: `go` of `Testing language 'go'`) to the source files of the tree they name.
import { baseName, dirName, isSourceName, isSourcePath, isTestPath } from './source-files.js';
import type { TreeIndex } from './tree-index.js';

/** A path built from a name: the directory named, and what comes before and after the name. */
export interface PathPattern {
  /** The last directories written before it ('' when none): `components`. */
  dir: string;
  prefix: string;
  suffix: string;
}

/** The longest line read for patterns. */
const MAX_LINE = 1000;
/** Patterns kept per text at most. */
const MAX_PATTERNS = 12;
/** Files one filled pattern may name (more: it names nothing in particular). */
const MAX_FILES = 3;

const EXT = String.raw`\.[A-Za-z0-9]{1,6}`;
const CONCAT = new RegExp(
  String.raw`(['"])([^'"\\\n]{0,80})\1\s*\+\s*[\w$.[\]]{1,60}\s*\+\s*(['"])([^'"\\\n]{0,40}${EXT})\3`,
  'g',
);
const NAME_FIRST = new RegExp(
  String.raw`(?:^|[(,\s])[A-Za-z_$][\w$.]{0,60}\s*\+\s*(['"])([^'"\\\n]{0,40}${EXT})\1`,
  'g',
);
const TEMPLATE = new RegExp(String.raw`\`([^\`$\n]{0,80})\$\{[^}\n]{1,60}\}([^\`$\n]{0,40}${EXT})\``, 'g');
const FSTRING = new RegExp(String.raw`\bf(['"])([^'"{}\n]{0,80})\{[^{}\n]{1,60}\}([^'"{}\n]{0,40}${EXT})\1`, 'g');
const LITERAL = /(['"])([^'"\\\n]{1,120})\1/g;

/** The path patterns a runner's text builds, whose files are source code (not data). */
export function runnerPatterns(text: string): PathPattern[] {
  const out: PathPattern[] = [];
  const add = (dirs: string, prefix: string, suffix: string): void => {
    const slash = prefix.lastIndexOf('/');
    const dir = lastDirs(`${dirs}/${slash >= 0 ? prefix.slice(0, slash) : ''}`);
    const p = { dir, prefix: prefix.slice(slash + 1), suffix };
    if (!isSourceName(`x${suffix}`) || suffix.includes('/')) return;
    if (!out.some((o) => o.dir === p.dir && o.prefix === p.prefix && o.suffix === p.suffix)) out.push(p);
  };
  for (const line of text.split('\n')) {
    if (line.length > MAX_LINE || !/[+`{]/.test(line)) continue;
    const concat = [...line.matchAll(CONCAT)];
    for (const m of concat) add(literalsBefore(line, m.index), m[2]!, m[4]!);
    for (const m of line.matchAll(TEMPLATE)) add(literalsBefore(line, m.index), m[1]!, m[2]!);
    for (const m of line.matchAll(FSTRING)) add(literalsBefore(line, m.index), m[2]!, m[3]!);
    if (concat.length === 0) for (const m of line.matchAll(NAME_FIRST)) add(literalsBefore(line, m.index), '', m[2]!);
    if (out.length >= MAX_PATTERNS) break;
  }
  return out.slice(0, MAX_PATTERNS);
}

/**
 * The source files (not tests) the patterns name for each word: a file of that name, in the pattern's
 * directory when it names one, when at most MAX_FILES are.
 */
export function filesFromPatterns(
  patterns: readonly PathPattern[],
  words: readonly string[],
  index: TreeIndex,
): { word: string; path: string }[] {
  const out: { word: string; path: string }[] = [];
  for (const word of words) {
    if (!/^[\w.+-]{1,60}$/.test(word)) continue;
    for (const p of patterns) {
      const base = `${p.prefix}${word}${p.suffix}`;
      const hits = (index.byBase.get(base) ?? []).filter((f) => isSourcePath(f) && !isTestPath(f));
      const inDir = p.dir === '' ? hits : hits.filter((f) => `/${dirName(f)}`.endsWith(`/${p.dir}`));
      const chosen = inDir.length > 0 ? inDir : hits;
      if (chosen.length === 0 || chosen.length > MAX_FILES) continue;
      for (const path of chosen) if (!out.some((o) => o.path === path)) out.push({ word, path });
    }
  }
  return out;
}

/**
 * The names a failing data-driven test is run for, as written (short ones too: `go`, `c`): each data
 * file's directories and name, and the quoted parts and bracketed parameters of the titles.
 */
export function runNames(dataFiles: readonly string[], titles: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of dataFiles) {
    for (const seg of dirName(p).split('/').slice(-2)) if (seg !== '') out.add(seg);
    out.add(baseName(p).replace(/\.[^.]*$/, ''));
  }
  for (const t of titles) {
    for (const m of t.matchAll(/'([^'\n]{1,60})'|"([^"\n]{1,60})"|\[([^\]\n]{1,60})\]/g))
      out.add(m[1] ?? m[2] ?? m[3]!);
  }
  return [...out].slice(0, 24);
}

/** The directories a runner names before the pattern (`'../../components'` → `components`). */
function literalsBefore(line: string, at: number): string {
  const dirs: string[] = [];
  for (const m of line.slice(0, at).matchAll(LITERAL)) dirs.push(m[2]!);
  return dirs.filter((d) => !/\.[A-Za-z0-9]{1,6}$/.test(d)).join('/');
}

/** The last two named directories of a path (`..`, `.` and empty parts left out). */
function lastDirs(path: string): string {
  return path
    .split('/')
    .filter((s) => s !== '' && s !== '.' && s !== '..' && !s.startsWith('__'))
    .slice(-2)
    .join('/');
}
