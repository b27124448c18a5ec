// Step 3: find the unified diff in a model's answer (fenced ```diff / ```patch blocks, or a raw
// diff in the text), or recognise NO_CHANGES. The patch returned is re-serialised from what the
// parser recognised, so only recognised diff lines ever reach git.
import { findFencedBlocks } from './fences.js';
import { parsePatch, serializePatch, splitLines, type FilePatch } from './parse-patch.js';

/** What an answer held. */
export type Extraction =
  | {
      kind: 'diff';
      /** The normalised patch: LF line ends, ending in a newline. */
      patch: string;
      /** How many diff blocks it came from (0 for a raw diff in the text). */
      blocks: number;
      /** Repairs made on the way (each a short sentence), e.g. a/ b/ prefixes added. */
      fixes: string[];
    }
  | { kind: 'no_changes' }
  | { kind: 'unusable'; reason: string };

const DIFF_LANGS = new Set(['diff', 'patch', 'udiff']);

/** Extract the diff, NO_CHANGES, or the reason there is neither, from a model's answer. */
export function extractDiff(answer: string): Extraction {
  const text = stripThinking(answer.replace(/\r\n?/g, '\n'));
  if (text.trim() === '') return { kind: 'unusable', reason: 'the answer was empty' };

  const blocks = findFencedBlocks(text);
  const diffBlocks = blocks.filter((b) => DIFF_LANGS.has(b.lang) || looksLikeDiff(b.content));
  let files: FilePatch[] = [];
  if (diffBlocks.length > 0) {
    for (const b of diffBlocks) files.push(...parsePatch(b.content, { overflow: 'hunk' }).files);
  } else {
    files = parsePatch(text, { overflow: 'prose' }).files;
  }

  if (files.length > 0) {
    const fixes: string[] = [];
    const repaired = files.map((f) => addMissingPrefixes(f, fixes));
    return { kind: 'diff', patch: serializePatch(repaired), blocks: diffBlocks.length, fixes };
  }
  if (isNoChanges(text)) return { kind: 'no_changes' };
  if (diffBlocks.length > 0 || /^@@ /m.test(text)) {
    return {
      kind: 'unusable',
      reason: 'the diff has no file headers: each file needs "--- a/<path>" and "+++ b/<path>" lines before its @@ hunks',
    };
  }
  return { kind: 'unusable', reason: 'no unified diff found: answer with one ```diff block, or exactly NO_CHANGES' };
}

// Reasoning models wrap their thinking in <think>...</think>; it is not the answer.
function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?(<\/think>|$)/g, '');
}

function looksLikeDiff(content: string): boolean {
  return /^diff --git /m.test(content) || /^--- .*\n\+\+\+ /m.test(content);
}

/** True when a line of the answer, stripped of markdown decoration, is NO_CHANGES. */
function isNoChanges(text: string): boolean {
  return splitLines(text).some((l) => /^NO[_ ]CHANGES$/i.test(l.replace(/^[\s>*_`#"'-]+|[\s*_`"'.!]+$/g, '')));
}

// A model that writes "--- src/x.py" / "+++ src/x.py" means a/ and b/; git apply -p1 would strip
// "src/". Add the prefixes when neither side has its own (so a real directory "a/" is never touched).
function addMissingPrefixes(file: FilePatch, fixes: string[]): FilePatch {
  if (file.oldHeader === null || file.newHeader === null || file.oldPath === null || file.newPath === null) return file;
  const oldIsNull = file.oldPath === '/dev/null';
  const newIsNull = file.newPath === '/dev/null';
  if (oldIsNull && newIsNull) return file;
  const oldOk = oldIsNull || file.oldPath.startsWith('a/');
  const newOk = newIsNull || file.newPath.startsWith('b/');
  if (oldOk && newOk) return file;
  if ((!oldIsNull && file.oldPath.startsWith('a/')) || (!newIsNull && file.newPath.startsWith('b/'))) return file;
  const fixed = { ...file };
  if (!oldIsNull) {
    fixed.oldHeader = `--- ${prefixed(file.oldHeader.slice(4), 'a/')}`;
    fixed.oldPath = `a/${file.oldPath}`;
  }
  if (!newIsNull) {
    fixed.newHeader = `+++ ${prefixed(file.newHeader.slice(4), 'b/')}`;
    fixed.newPath = `b/${file.newPath}`;
  }
  if (file.gitHeader !== null && !oldIsNull && !newIsNull) {
    fixed.gitHeader = `diff --git ${prefixed(file.oldHeader.slice(4).split('\t')[0]!, 'a/')} ${prefixed(file.newHeader.slice(4).split('\t')[0]!, 'b/')}`;
  } else if (file.gitHeader !== null) {
    const path = oldIsNull ? file.newHeader.slice(4).split('\t')[0]! : file.oldHeader.slice(4).split('\t')[0]!;
    fixed.gitHeader = `diff --git ${prefixed(path, 'a/')} ${prefixed(path, 'b/')}`;
  }
  fixes.push(`added the a/ and b/ prefixes to the headers of ${oldIsNull ? file.newPath : file.oldPath}`);
  return fixed;
}

function prefixed(value: string, prefix: 'a/' | 'b/'): string {
  return value.startsWith('"') ? `"${prefix}${value.slice(1)}` : `${prefix}${value}`;
}
