// Steps 3 and the host half of 4 together: from a model's answer to a vetted patch, NO_CHANGES,
// or the reason the answer cannot be used.
import { extractDiff } from './extract-diff.js';
import { validateDiff, type ValidatedFile } from './validate-diff.js';

/** A model answer, interpreted. */
export type Interpretation =
  | {
      kind: 'diff';
      patch: string;
      files: ValidatedFile[];
      lines: number;
      added: number;
      removed: number;
      hash: string;
      blocks: number;
      fixes: string[];
    }
  | { kind: 'no_changes' }
  | { kind: 'unusable'; reason: string };

/** Extract the diff from an answer and vet it; anything unacceptable becomes 'unusable' with its reason. */
export function interpretAnswer(answer: string, options: { maxDiffLines: number }): Interpretation {
  const extraction = extractDiff(answer);
  if (extraction.kind !== 'diff') return extraction;
  const v = validateDiff(extraction.patch, options);
  if (!v.ok) return { kind: 'unusable', reason: v.reason };
  return {
    kind: 'diff',
    patch: extraction.patch,
    files: v.files,
    lines: v.lines,
    added: v.added,
    removed: v.removed,
    hash: v.hash,
    blocks: extraction.blocks,
    fixes: extraction.fixes,
  };
}
