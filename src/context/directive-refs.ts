// What a directive names: paths of the tree and code names (functions, classes, methods) (pure).
import type { TreeIndex } from './tree-index.js';

/** Paths the directive names and the code names it mentions. */
export interface DirectiveRefs {
  paths: string[];
  /** Names that look like code (`parse_header`, `Stack.push`, `clamp()`, or in backticks), innermost part. */
  names: string[];
  /** Lines a link names (`…/blob/v6.2.1/big.js#L224-L230`), by path. */
  lines: Map<string, number[]>;
  /** Code it quotes that is more than a name (`xc.length = sd--`), to find where it is. */
  quotes: string[];
  /** Names it quotes (in backticks), whose places in a large file are worth a window. */
  quoted: string[];
  /** Its plain words (`round`), which name code only where a file it names defines them. */
  words: string[];
}

/** Quoted code kept at most, and its shortest and longest. */
const MAX_QUOTES = 8;
const MIN_QUOTE = 6;
const MAX_QUOTE = 120;
/** Plain words kept at most. */
const MAX_WORDS = 80;
/** A link to a file of a repository on a forge: GitHub's and Gitea's blob/tree/raw, GitLab's -/blob. */
const LINK =
  /https?:\/\/[^\s<>()'"`\]]{1,400}?\/(?:-\/)?(?:blob|tree|raw|src)\/([^\s<>()'"`#?\]]{1,300})(?:#L(\d{1,7})(?:-L?(\d{1,7}))?)?/g;

const STOP = new Set(['the', 'and', 'for', 'not', 'with', 'this', 'that', 'from', 'into', 'when', 'should']);

/**
 * Tree paths (exactly, as ./path, by a base name unique in the tree, or linked with the lines linked),
 * code names, quoted code and plain words of a directive.
 */
export function directiveRefs(directive: string, index: TreeIndex): DirectiveRefs {
  const paths: string[] = [];
  for (const m of directive.matchAll(/[A-Za-z0-9_@+~./-]+/g)) {
    const token = m[0].replace(/[.,:;]+$/, '');
    const forms = [token, token.replace(/^\.\//, ''), token.replace(/^[ab]\//, '')];
    const exact = forms.find((f) => index.has(f));
    let hit: string | undefined = exact;
    if (hit === undefined && !token.includes('/') && token.includes('.')) {
      const hits = index.byBase.get(token) ?? [];
      if (hits.length === 1) hit = hits[0];
    }
    if (hit !== undefined && !paths.includes(hit)) paths.push(hit);
  }
  // links to files of the repository, with the lines they point at; the ref may hold slashes
  const lines = new Map<string, number[]>();
  for (const m of directive.matchAll(LINK)) {
    const segs = m[1]!.split('/');
    for (let i = 1; i < segs.length; i++) {
      const p = segs.slice(i).join('/');
      if (!index.has(p)) continue;
      if (!paths.includes(p)) paths.push(p);
      const at = m[2] === undefined ? [] : [Number(m[2]), Number(m[3] ?? m[2])];
      lines.set(p, [...(lines.get(p) ?? []), ...at]);
      break;
    }
  }
  const names: string[] = [];
  const add = (raw: string): void => {
    const last =
      raw
        .split(/::|\.|#/)
        .filter(Boolean)
        .at(-1) ?? '';
    if (/^[A-Za-z_$][\w$]{2,}$/.test(last) && !STOP.has(last.toLowerCase()) && !names.includes(last)) names.push(last);
  };
  const quotes: string[] = [];
  const quoted: string[] = [];
  for (const m of directive.matchAll(/`([^`\n]{1,120})`/g)) {
    const q = m[1]!.trim();
    // more than a name or a path: code to look for as it is written
    if (/[^\w$.:#/()-]/.test(q) && q.length >= MIN_QUOTE && q.length <= MAX_QUOTE && /[A-Za-z]/.test(q)) {
      if (!quotes.includes(q) && quotes.length < MAX_QUOTES) quotes.push(q);
    }
    for (const t of q.matchAll(/[A-Za-z_$][\w$]*(?:(?:::|\.|#)[A-Za-z_$][\w$]*)*/g)) {
      if (!/\.[a-z]{1,4}$/.test(t[0]) || !index.has(t[0])) {
        add(t[0]);
        const last = t[0].split(/::|\.|#/).at(-1) ?? '';
        if (/^[A-Za-z_$][\w$]{2,}$/.test(last) && !quoted.includes(last)) quoted.push(last);
      }
    }
  }
  for (const m of directive.matchAll(/[A-Za-z_$][\w$]*(?:(?:::|\.|#)[A-Za-z_$][\w$]*)*(\(\))?/g)) {
    const t = m[0];
    const codeLike =
      m[1] !== undefined || t.includes('_') || t.includes('::') || /[a-z][A-Z]/.test(t) || /^[A-Z][a-z]+[A-Z]/.test(t);
    const qualified =
      /^[A-Za-z_$][\w$]*[.#][A-Za-z_$][\w$]*$/.test(t) && !/\.(py|js|ts|go|rs|md|txt|json|toml)$/.test(t);
    if (codeLike || qualified) add(t.replace(/\(\)$/, ''));
  }
  const words: string[] = [];
  for (const m of directive.replace(LINK, ' ').matchAll(/(?<![\w$.])[A-Za-z_][A-Za-z0-9_]{2,40}(?![\w$])/g)) {
    const w = m[0];
    if (!STOP.has(w.toLowerCase()) && !words.includes(w) && words.length < MAX_WORDS) words.push(w);
  }
  return { paths, names, lines, quotes, quoted, words };
}
