// What a directive names: paths of the tree and code names (functions, classes, methods) (pure).
import type { TreeIndex } from './tree-index.js';

/** Paths the directive names and the code names it mentions. */
export interface DirectiveRefs {
  paths: string[];
  /** Names that look like code (`parse_header`, `Stack.push`, `clamp()`, or in backticks), innermost part. */
  names: string[];
}

const STOP = new Set(['the', 'and', 'for', 'not', 'with', 'this', 'that', 'from', 'into', 'when', 'should']);

/** Tree paths (exactly, as ./path, or by a base name unique in the tree) and code names in a directive. */
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
  const names: string[] = [];
  const add = (raw: string): void => {
    const last =
      raw
        .split(/::|\.|#/)
        .filter(Boolean)
        .at(-1) ?? '';
    if (/^[A-Za-z_$][\w$]{2,}$/.test(last) && !STOP.has(last.toLowerCase()) && !names.includes(last)) names.push(last);
  };
  for (const m of directive.matchAll(/`([^`\n]{1,120})`/g)) {
    for (const t of m[1]!.matchAll(/[A-Za-z_$][\w$]*(?:(?:::|\.|#)[A-Za-z_$][\w$]*)*/g)) {
      if (!/\.[a-z]{1,4}$/.test(t[0]) || !index.has(t[0])) add(t[0]);
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
  return { paths, names };
}
