// The repository map: an outline of the definitions of relevant files not shown, ranked by how often
// the failing code refers to them, within its own budget (pure).
import type { Definition } from '../syntax/index.js';
import type { RepositoryMap } from './types.js';

/** A file that may be outlined, with its definitions and how relevant it is. */
export interface MapCandidate {
  path: string;
  definitions: readonly Definition[];
  /** Hops from the failure (0 for the failing files). */
  distance: number;
  /** How often each name is referenced from the failing code. */
  references: ReadonlyMap<string, number>;
}

/** Definitions listed per file at most. */
const MAX_PER_FILE = 40;
/** Kinds left out of the outline (local noise). */
const SKIPPED_KINDS = new Set(['variable']);

/** The map's text and the files it outlines, or null when nothing fits or nothing is left. */
export function buildRepositoryMap(candidates: readonly MapCandidate[], budget: number): RepositoryMap | null {
  const scored = candidates
    .map((c) => {
      const defs = c.definitions.filter((d) => d.depth <= 1 && !SKIPPED_KINDS.has(d.kind));
      const refs = defs.reduce((n, d) => n + (c.references.get(d.name) ?? 0), 0);
      return { c, defs, score: refs * 4 - c.distance };
    })
    .filter((s) => s.defs.length > 0)
    .sort((a, b) => b.score - a.score || a.c.distance - b.c.distance || a.c.path.localeCompare(b.c.path));
  const parts: string[] = [];
  const files: RepositoryMap['files'] = [];
  let left = budget;
  for (const { c, defs } of scored) {
    // referenced definitions first when a file has more than fit, then back in source order
    const ranked = [...defs]
      .sort((a, b) => (c.references.get(b.name) ?? 0) - (c.references.get(a.name) ?? 0) || a.startLine - b.startLine)
      .slice(0, MAX_PER_FILE)
      .sort((a, b) => a.startLine - b.startLine);
    const lines = [`${c.path}:`];
    for (const d of ranked) lines.push(`${String(d.startLine).padStart(6)}: ${'  '.repeat(d.depth)}${d.signature}`);
    if (defs.length > ranked.length) lines.push(`        ... ${defs.length - ranked.length} more definitions`);
    let text = lines.join('\n');
    if (text.length + 1 > left) {
      // as many lines as fit, when that is at least the header and one definition
      const fit: string[] = [];
      let used = 0;
      for (const l of lines) {
        if (used + l.length + 1 > left) break;
        fit.push(l);
        used += l.length + 1;
      }
      if (fit.length < 2) continue;
      text = fit.join('\n');
    }
    parts.push(text);
    files.push({ path: c.path, definitions: text.split('\n').length - 1, chars: text.length });
    left -= text.length + 1;
    if (left < 40) break;
  }
  return parts.length === 0 ? null : { text: parts.join('\n'), files };
}
