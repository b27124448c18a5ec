// A model's answer read as edits in the run's format: a unified diff (src/patch/extract-diff.ts),
// SEARCH/REPLACE blocks, NO_CHANGES, or the reason it is none of these.
import { extractDiff, isNoChanges, stripThinking } from '../patch/extract-diff.js';
import type { FilePatch } from '../patch/parse-patch.js';
import { hasSearchReplace, parseSearchReplace, type SearchReplaceBlock } from './search-replace.js';

/** The answer format the prompt teaches (config `model.edit_format`). */
export type EditFormat = 'udiff' | 'search-replace' | 'auto';

/** The edits an answer holds, in one of the two formats. */
export type AnswerEdits =
  | {
      kind: 'udiff';
      files: FilePatch[];
      patch: string;
      blocks: number;
      fixes: string[];
      /** Paths whose headers were guessed from the text (see Extraction). */
      guessed: string[];
    }
  | { kind: 'search_replace'; blocks: SearchReplaceBlock[]; fixes: string[] };

/** An answer, read. */
export type ParsedAnswer =
  { kind: 'edits'; edits: AnswerEdits } | { kind: 'no_changes' } | { kind: 'unusable'; reason: string };

/** How to read answers: the format taught, and strict mode (unified diffs applied as written only). */
export interface AnswerOptions {
  format: EditFormat;
  strict: boolean;
}

/** Read an answer as edits, NO_CHANGES, or unusable with the reason the model is told. */
export function parseAnswer(answer: string, options: AnswerOptions): ParsedAnswer {
  const text = stripThinking(answer.replace(/\r\n?/g, '\n'));
  if (hasSearchReplace(text)) {
    if (options.format === 'udiff' || options.strict) {
      const why = options.strict ? '[edits] strict = true' : 'edit_format = "udiff"';
      return {
        kind: 'unusable',
        reason: `SEARCH/REPLACE blocks are not accepted in this run (${why}): answer with one unified diff in a \`\`\`diff block`,
      };
    }
    const sr = parseSearchReplace(text);
    if (sr.problem !== null) return { kind: 'unusable', reason: sr.problem };
    if (extractDiff(sr.rest).kind === 'diff') {
      return {
        kind: 'unusable',
        reason: 'the answer mixes a unified diff and SEARCH/REPLACE blocks: use one format for the whole answer',
      };
    }
    return { kind: 'edits', edits: { kind: 'search_replace', blocks: sr.blocks, fixes: [] } };
  }
  const ext = extractDiff(text);
  if (ext.kind === 'diff') {
    if (options.format === 'search-replace' && !options.strict) {
      return {
        kind: 'unusable',
        reason:
          'unified diffs are not accepted in this run (edit_format = "search-replace"): answer with SEARCH/REPLACE blocks',
      };
    }
    return {
      kind: 'edits',
      edits: {
        kind: 'udiff',
        files: ext.files,
        patch: ext.patch,
        blocks: ext.blocks,
        fixes: ext.fixes,
        guessed: ext.guessed,
      },
    };
  }
  if (ext.kind === 'no_changes' || isNoChanges(text)) return { kind: 'no_changes' };
  if (options.format === 'search-replace' && !options.strict) {
    return {
      kind: 'unusable',
      reason:
        'no SEARCH/REPLACE blocks found: answer with blocks in the form the system message shows, or exactly NO_CHANGES',
    };
  }
  return ext;
}

/** The SEARCH/REPLACE blocks written out canonically (the run's record of such an answer). */
export function renderSearchReplace(blocks: readonly SearchReplaceBlock[]): string {
  return blocks
    .map((b) => [b.path, '<<<<<<< SEARCH', ...b.search, '=======', ...b.replace, '>>>>>>> REPLACE', ''].join('\n'))
    .join('');
}
