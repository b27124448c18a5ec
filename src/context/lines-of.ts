// Lines of a file worth showing for what names them (pure): where the failing tests are defined, where
// code the directive quotes is written, where names it quotes are used.
import type { SourceAnalysis } from '../syntax/index.js';

/** The lines of a test file holding the failing tests' names (where they are defined). */
export function linesOfTests(text: string, names: readonly string[]): number[] {
  const wanted = names.filter((n) => n.length >= 4).slice(0, 10);
  const out: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (out.length < 4 && wanted.some((n) => line.includes(n))) out.push(i + 1);
  });
  return out;
}

/** The lines of a text holding any of the snippets (spaces compared loosely), a few per snippet. */
export function linesHolding(text: string, snippets: readonly string[]): number[] {
  if (snippets.length === 0) return [];
  const squeeze = (s: string): string => s.replace(/\s+/g, ' ').trim();
  const wanted = snippets.map(squeeze);
  const out: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (out.length < 4 * wanted.length && wanted.some((w) => squeeze(line).includes(w))) out.push(i + 1);
  });
  return out;
}

/** Lines where names the directive quotes are used, a few per name. */
export function quotedLines(analysis: SourceAnalysis | null, quoted: readonly string[]): number[] {
  if (analysis === null || quoted.length === 0) return [];
  const out: number[] = [];
  for (const name of quoted) out.push(...analysis.identifiers.filter((i) => i.name === name).slice(0, 3).map((i) => i.line)); // prettier-ignore
  return out;
}
