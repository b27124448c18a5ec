// Step 3: find the unified diff in a model's answer (fenced ```diff / ```patch blocks, or a raw
// diff in the text), or recognise NO_CHANGES. The patch returned is re-serialised from what the
// parser recognised, so only recognised diff lines ever reach git. Headers the model left out or
// mangled are repaired (src/patch/repair-headers.ts); hunk counts are left as written (the apply
// ladder recounts them).
import { insertMissingHeaders, repairFileHeaders, type HeaderHint } from './repair-headers.js';
import { stripPrefix } from './patch-paths.js';
import { pathHintBefore } from './path-hint.js';
import { findFencedBlocks } from './fences.js';
import {
  isHunkHeader,
  parsePatch,
  serializePatch,
  splitLines,
  type FilePatch,
  type ParseOptions,
} from './parse-patch.js';

/** What an answer held. */
export type Extraction =
  | {
      kind: 'diff';
      /** The normalised patch: LF line ends, ending in a newline. */
      patch: string;
      /** The parsed file sections the patch was serialised from. */
      files: FilePatch[];
      /** How many diff blocks it came from (0 for a raw diff in the text). */
      blocks: number;
      /** Repairs made on the way (each a short sentence), e.g. a/ b/ prefixes added. */
      fixes: string[];
      /**
       * Repo paths whose file headers were guessed from the text before their hunks: such a path
       * must be an existing file, or its hunks must only add lines (a new file).
       */
      guessed: string[];
    }
  | { kind: 'no_changes' }
  | { kind: 'unusable'; reason: string };

const DIFF_LANGS = new Set(['diff', 'patch', 'udiff']);

/** Extract the diff, NO_CHANGES, or the reason there is neither, from a model's answer. */
export function extractDiff(answer: string): Extraction {
  const text = stripThinking(answer.replace(/\r\n?/g, '\n'));
  if (text.trim() === '') return { kind: 'unusable', reason: 'the answer was empty' };

  const lines = text.split('\n');
  const fixes: string[] = [];
  const blocks = findFencedBlocks(text);
  const diffBlocks = blocks.filter((b) => DIFF_LANGS.has(b.lang) || looksLikeDiff(b.content));
  let files: FilePatch[] = [];
  const guessed = new Set<string>();
  // a hunk header outside every file section: a hunk no header names, which would be left out
  const orphans: string[] = [];
  const parse = (content: string, options: ParseOptions): FilePatch[] => {
    const parsed = parsePatch(content, options);
    orphans.push(...parsed.junk.map((j) => j.text).filter((l) => isHunkHeader(l)));
    return parsed.files;
  };
  if (diffBlocks.length > 0) {
    for (const b of diffBlocks) {
      // a name is looked for only in the prose since the block before (never inside a block)
      const floor = blocks.filter((x) => x.end <= b.start).reduce((m, x) => Math.max(m, x.end), 0);
      const named = pathHintBefore(lines.slice(Math.max(floor, b.start - 6), b.start));
      const hint: HeaderHint | null = named !== null ? { path: named, from: 'prose' } : continuation(files.at(-1));
      const content = insertMissingHeaders(b.content, hint, fixes);
      if (content.used && hint?.from === 'prose') guessed.add(hint.path);
      files.push(...parse(content.text, { overflow: 'hunk', repairContext: true, fence: b.fence }));
    }
  } else {
    const first = lines.findIndex((l) => isHunkHeader(l) || l.startsWith('--- ') || l.startsWith('diff --git '));
    const named = first < 0 ? null : pathHintBefore(lines.slice(Math.max(0, first - 6), first));
    const content = insertMissingHeaders(text, named === null ? null : { path: named, from: 'prose' }, fixes);
    if (content.used && named !== null) guessed.add(named);
    files = parse(content.text, { overflow: 'prose' });
  }
  files = files.filter((f) => f.hunks.length > 0 || f.gitHeader !== null || f.binary);

  if (files.length > 0 && orphans.length > 0) {
    return {
      kind: 'unusable',
      reason: `the hunk ${JSON.stringify(orphans[0]!.slice(0, 40))} has no file header before it, so its file is unknown and the diff is incomplete without it: put "--- a/<path>" and "+++ b/<path>" lines naming its file before it`,
    };
  }
  if (files.length > 0) {
    const repaired = files.map((f) => repairFileHeaders(f, fixes));
    const bare = repaired.reduce((k, f) => k + f.hunks.filter((h) => !h.numbered).length, 0);
    if (bare > 0)
      fixes.push(`${bare} hunk header${bare === 1 ? '' : 's'} without line numbers, to be placed by their context`);
    return {
      kind: 'diff',
      patch: serializePatch(repaired),
      files: repaired,
      blocks: diffBlocks.length,
      fixes: [...new Set(fixes)],
      guessed: [...guessed],
    };
  }
  if (isNoChanges(text)) return { kind: 'no_changes' };
  if (diffBlocks.length > 0 || lines.some((l) => /^@@ /.test(l))) {
    return {
      kind: 'unusable',
      reason:
        'the diff has no file headers: each file needs "--- a/<path>" and "+++ b/<path>" lines before its @@ hunks',
    };
  }
  return { kind: 'unusable', reason: 'no unified diff found: answer with one ```diff block, or exactly NO_CHANGES' };
}

// Hunks in a block without headers, after a block whose last section names one file on both
// sides: more of that file (its explicit header wins over any name guessed from the text).
function continuation(last: FilePatch | undefined): HeaderHint | null {
  if (last === undefined || last.oldPath === null || last.newPath === null) return null;
  if (last.oldPath === '/dev/null' || last.newPath === '/dev/null') return null;
  const path = stripPrefix(last.newPath, 'b/');
  if (stripPrefix(last.oldPath, 'a/') !== path || /\s/.test(path)) return null;
  return { path, from: 'previous' };
}

// Reasoning models wrap their thinking in <think>...</think>; it is not the answer.
/** The answer without <think>...</think> sections. */
export function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?(<\/think>|$)/g, '');
}

function looksLikeDiff(content: string): boolean {
  return (
    /^diff --git /m.test(content) ||
    /^--- .*\n\+\+\+ /m.test(content) ||
    /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m.test(content)
  );
}

/** True when a line of the answer, stripped of markdown decoration, is NO_CHANGES. */
export function isNoChanges(text: string): boolean {
  return splitLines(text).some((l) => /^NO[_ ]CHANGES$/i.test(l.replace(/^[\s>*_`#"'-]+|[\s*_`"'.!]+$/g, '')));
}
