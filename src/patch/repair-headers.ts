// Repairs to the file headers of a model's diff: headers a block left out, paths with prose after
// them, a git header with no ---/+++ lines, missing or doubled a/ b/ prefixes. Each repair says
// what it did in `fixes`; nothing here decides whether a path is safe (validation does).
import { isHunkHeader, type FilePatch } from './parse-patch.js';
import { stripPrefix } from './patch-paths.js';
import { parseGitHeader } from './validate-diff.js';

/** Where the file of hunks without headers was named: the prose just before them, or the block before. */
export interface HeaderHint {
  path: string;
  /** 'prose': a guess from the text (it must name an existing file, or the hunks must create one); 'previous': the explicit header of the diff block before. */
  from: 'prose' | 'previous';
}

/**
 * Add the ---/+++ lines a diff text lacks: before hunks that come with no file header at all
 * (when `hint` names the file), and beside a lone "--- x" or "+++ x" line followed by a hunk.
 * `used` says whether the hint was put in.
 */
export function insertMissingHeaders(
  text: string,
  hint: HeaderHint | null,
  fixes: string[],
): { text: string; used: boolean } {
  let used = false;
  const lines = text.split('\n');
  const out: string[] = [];
  let sawFile = false;
  let inHunk = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const next = lines[i + 1] ?? '';
    if (inHunk && !isHunkHeader(l) && /^([ +\-\\]|$)/.test(l) && !(l.startsWith('--- ') && next.startsWith('+++ '))) {
      out.push(l);
      continue;
    }
    inHunk = false;
    if (l.startsWith('diff --git ') || l.startsWith('+++ ')) sawFile = true;
    if (l.startsWith('--- ') && isHunkHeader(next)) {
      out.push(l, `+++ ${swapPrefix(l.slice(4), 'b/')}`);
      fixes.push(`added the missing "+++" line after ${JSON.stringify(l.slice(0, 60))}`);
      sawFile = true;
      continue;
    }
    if (l.startsWith('+++ ') && !(out.at(-1) ?? '').startsWith('--- ') && isHunkHeader(next)) {
      out.push(`--- ${swapPrefix(l.slice(4), 'a/')}`, l);
      fixes.push(`added the missing "---" line before ${JSON.stringify(l.slice(0, 60))}`);
      continue;
    }
    if (isHunkHeader(l)) {
      inHunk = true;
      if (!sawFile && hint !== null) {
        out.push(`--- a/${hint.path}`, `+++ b/${hint.path}`);
        fixes.push(
          hint.from === 'prose'
            ? `added the file headers the diff left out, for ${hint.path} (named before the diff)`
            : `took the hunks of a diff block without file headers as more of ${hint.path}, the file of the block before`,
        );
        sawFile = true;
        used = true;
      }
    }
    out.push(l);
  }
  return { text: out.join('\n'), used };
}

function swapPrefix(value: string, prefix: 'a/' | 'b/'): string {
  const other = prefix === 'a/' ? 'b/' : 'a/';
  if (value === '/dev/null') return value;
  return value.startsWith(other) ? `${prefix}${value.slice(2)}` : value;
}

/** Repair one file section's headers (see the module comment); returns a new section. */
export function repairFileHeaders(file: FilePatch, fixes: string[]): FilePatch {
  let f = dropTrailingProse(file, fixes);
  f = headersFromGitHeader(f, fixes);
  f = fixDoubledPrefix(f, fixes);
  f = addMissingPrefixes(f, fixes);
  return alignGitHeader(f, fixes);
}

// "--- calc.py (original)", "+++ b/calc.py 2024-05-01 10:00:00": the path is the first word.
function dropTrailingProse(file: FilePatch, fixes: string[]): FilePatch {
  const clean = (p: string | null): string | null => {
    if (p === null) return null;
    const m =
      /^(\S+)\s+(\(.*\)|\d{4}-\d\d-\d\d.*|\d\d?:\d\d.*|\(?(?:original|modified|old|new|before|after|fixed)\)?)$/i.exec(
        p,
      );
    return m ? m[1]! : p;
  };
  const oldPath = clean(file.oldPath);
  const newPath = clean(file.newPath);
  if (oldPath === file.oldPath && newPath === file.newPath) return file;
  fixes.push(`removed the words after the path in the headers of ${newPath ?? oldPath ?? 'a file'}`);
  return {
    ...file,
    oldPath,
    newPath,
    oldHeader: oldPath === null ? file.oldHeader : `--- ${oldPath}`,
    newHeader: newPath === null ? file.newHeader : `+++ ${newPath}`,
  };
}

// "diff --git a/x b/x" then hunks, with no ---/+++ lines: git needs them.
function headersFromGitHeader(file: FilePatch, fixes: string[]): FilePatch {
  if (file.gitHeader === null || file.oldHeader !== null || file.hunks.length === 0) return file;
  const paths = parseGitHeader(file.gitHeader) ?? equalHalves(file.gitHeader);
  if (paths === null) return file;
  const isNew = file.extended.some((l) => l.startsWith('new file mode '));
  const isDeleted = file.extended.some((l) => l.startsWith('deleted file mode '));
  const oldPath = isNew ? '/dev/null' : `a/${paths.old}`;
  const newPath = isDeleted ? '/dev/null' : `b/${paths.new}`;
  fixes.push(`added the "---" and "+++" lines of ${paths.new} from its "diff --git" line`);
  return { ...file, oldPath, newPath, oldHeader: `--- ${oldPath}`, newHeader: `+++ ${newPath}` };
}

function equalHalves(gitHeader: string): { old: string; new: string } | null {
  const rest = gitHeader.slice('diff --git '.length);
  const half = (rest.length - 1) / 2;
  if (
    !Number.isInteger(half) ||
    rest[half] !== ' ' ||
    rest.slice(0, half) !== rest.slice(half + 1) ||
    rest.startsWith('"')
  )
    return null;
  return { old: rest.slice(0, half), new: rest.slice(0, half) };
}

// "--- a/x" with "+++ a/x" (or b/ on both): the same file, one prefix mistyped.
function fixDoubledPrefix(file: FilePatch, fixes: string[]): FilePatch {
  const { oldPath, newPath } = file;
  if (oldPath === null || newPath === null || oldPath === '/dev/null' || newPath === '/dev/null') return file;
  if (oldPath.startsWith('a/') && newPath.startsWith('a/') && oldPath === newPath) {
    fixes.push(`changed the "+++ a/" prefix of ${newPath.slice(2)} to b/`);
    return { ...file, newPath: `b/${newPath.slice(2)}`, newHeader: `+++ b/${newPath.slice(2)}` };
  }
  if (oldPath.startsWith('b/') && newPath.startsWith('b/') && oldPath === newPath) {
    fixes.push(`changed the "--- b/" prefix of ${oldPath.slice(2)} to a/`);
    return { ...file, oldPath: `a/${oldPath.slice(2)}`, oldHeader: `--- a/${oldPath.slice(2)}` };
  }
  return file;
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

// A "diff --git" line naming other paths than the ---/+++ lines (and no rename or copy): git
// refuses the mismatch; the ---/+++ lines are what the hunks were written against.
function alignGitHeader(file: FilePatch, fixes: string[]): FilePatch {
  if (file.gitHeader === null || file.oldPath === null || file.newPath === null) return file;
  if (file.extended.some((l) => /^(rename|copy) (from|to) /.test(l))) return file;
  const git = parseGitHeader(file.gitHeader);
  const oldP = file.oldPath === '/dev/null' ? null : stripPrefix(file.oldPath, 'a/');
  const newP = file.newPath === '/dev/null' ? null : stripPrefix(file.newPath, 'b/');
  const a = oldP ?? newP;
  const b = newP ?? oldP;
  if (a === null || b === null || (git !== null && git.old === a && git.new === b)) return file;
  if (/[\s"\\]/.test(a + b)) return file;
  fixes.push(`rewrote the "diff --git" line of ${b} to match its ---/+++ lines`);
  return { ...file, gitHeader: `diff --git a/${a} b/${b}` };
}
