// Vet a patch on the host before git sees it: size, structure, and every path and mode in it.
// Reasons are short sentences the model reads in its next prompt.
import type { PatchFile } from '../state/run-state.js';
import { countHunkBody, parsePatch, splitLines, type FilePatch } from './parse-patch.js';
import { patchHash } from './patch-hash.js';
import { stripPrefix, unquoteGitPath, unsafePathReason } from './patch-paths.js';

/** How a patch changes one file. */
export type FileChangeStatus = PatchFile['status'];

/** One file a valid patch touches (paths without a/ b/; null for the missing side of an add or delete). */
export interface ValidatedFile {
  oldPath: string | null;
  newPath: string | null;
  status: FileChangeStatus;
}

/** A patch that passed vetting, or why it did not. */
export type DiffValidation =
  | { ok: true; files: ValidatedFile[]; lines: number; added: number; removed: number; hash: string }
  | { ok: false; reason: string };

export interface ValidateOptions {
  /** The most lines (of patch text, headers and context included) a patch may have. */
  maxDiffLines: number;
}

const ALLOWED_MODES = new Set(['100644', '100755']);

/**
 * Accept a patch only if it is non-empty, within maxDiffLines, made only of unified-diff lines,
 * every hunk's counts match its body, nothing is binary, every path is relative and outside .git,
 * and every mode is a regular file's. A file section without hunks is accepted only for what git
 * itself writes that way: a pure rename or copy, a mode change (644/755), or an empty file added
 * or deleted.
 */
export function validateDiff(patch: string, options: ValidateOptions): DiffValidation {
  if (patch.trim() === '') return fail('the diff is empty');
  const lineCount = splitLines(patch).length;
  if (lineCount > options.maxDiffLines) {
    return fail(`the diff has ${lineCount} lines, over the limit of ${options.maxDiffLines}: make a smaller change`);
  }
  const parsed = parsePatch(patch, { overflow: 'hunk' });
  const junk = parsed.junk.find((j) => j.text.trim() !== '');
  if (junk) return fail(`line ${junk.line} is not part of a unified diff: ${JSON.stringify(junk.text.slice(0, 80))}`);
  if (parsed.files.length === 0) return fail('no file headers found ("--- a/<path>" and "+++ b/<path>")');

  const files: ValidatedFile[] = [];
  let added = 0;
  let removed = 0;
  for (const file of parsed.files) {
    const checked = checkFile(file);
    if (typeof checked === 'string') return fail(checked);
    files.push(checked);
    for (const h of file.hunks) {
      const body = countHunkBody(h);
      added += body.added;
      removed += body.removed;
    }
  }
  return { ok: true, files, lines: lineCount, added, removed, hash: patchHash(patch) };
}

/** The state's view of a validated patch's files. */
export function toPatchFiles(files: readonly ValidatedFile[]): PatchFile[] {
  return files.map((f) => {
    const path = f.newPath ?? f.oldPath ?? '';
    return f.status === 'renamed' || f.status === 'copied'
      ? { path, status: f.status, from: f.oldPath ?? '' }
      : { path, status: f.status };
  });
}

function fail(reason: string): DiffValidation {
  return { ok: false, reason };
}

function checkFile(file: FilePatch): ValidatedFile | string {
  const ext = parseExtended(file.extended);
  const gitPaths = file.gitHeader === null ? null : parseGitHeader(file.gitHeader);
  const name = displayName(file, gitPaths);

  if (file.binary) return `${name}: binary patches are not accepted; change text files only`;
  if (file.gitHeader !== null && gitPaths === null) return `cannot read the paths in ${JSON.stringify(file.gitHeader)}`;

  const paths: string[] = [];
  let oldPath: string | null = null;
  let newPath: string | null = null;
  if (file.oldPath !== null && file.newPath !== null) {
    if (file.oldPath === '/dev/null' && file.newPath === '/dev/null') return `${name}: both sides are /dev/null`;
    if (file.oldPath !== '/dev/null' && !file.oldPath.startsWith('a/'))
      return `${name}: the --- path must start with a/ (or be /dev/null)`;
    if (file.newPath !== '/dev/null' && !file.newPath.startsWith('b/'))
      return `${name}: the +++ path must start with b/ (or be /dev/null)`;
    oldPath = file.oldPath === '/dev/null' ? null : stripPrefix(file.oldPath, 'a/');
    newPath = file.newPath === '/dev/null' ? null : stripPrefix(file.newPath, 'b/');
  } else if (gitPaths !== null) {
    oldPath = ext.newFile ? null : gitPaths.old;
    newPath = ext.deletedFile ? null : gitPaths.new;
  }
  if (gitPaths !== null) paths.push(gitPaths.old, gitPaths.new);
  if (ext.renameFrom !== null) oldPath = ext.renameFrom;
  if (ext.renameTo !== null) newPath = ext.renameTo;
  if (ext.copyFrom !== null) oldPath = ext.copyFrom;
  if (ext.copyTo !== null) newPath = ext.copyTo;
  for (const p of [oldPath, newPath, ...paths]) {
    if (p === null) continue;
    const unsafe = unsafePathReason(p);
    if (unsafe !== null) return unsafe;
  }
  const mismatch = namesDisagree(file, gitPaths, ext);
  if (mismatch !== null) return `${name}: ${mismatch}`;

  for (const mode of ext.modes) {
    if (ALLOWED_MODES.has(mode)) continue;
    if (mode === '120000') return `${name}: symbolic links (mode 120000) are not accepted`;
    if (mode === '160000') return `${name}: submodules (mode 160000) are not accepted`;
    return `${name}: file mode ${mode} is not accepted (only 100644 and 100755)`;
  }

  const status: FileChangeStatus =
    oldPath === null || ext.newFile
      ? 'added'
      : newPath === null || ext.deletedFile
        ? 'deleted'
        : ext.renameFrom !== null
          ? 'renamed'
          : ext.copyFrom !== null
            ? 'copied'
            : 'modified';

  if (file.hunks.length === 0) {
    const structural =
      file.gitHeader !== null &&
      (ext.renameFrom !== null || ext.copyFrom !== null || ext.oldMode !== null || ext.newFile || ext.deletedFile);
    if (!structural) return `${name}: no @@ hunk header; every change needs a hunk such as "@@ -12,3 +12,4 @@"`;
  }
  for (const [k, h] of file.hunks.entries()) {
    if (!h.canonical) {
      return `${name}: hunk ${k + 1} has the header ${JSON.stringify(h.header.slice(0, 60))}; git needs "@@ -start,count +start,count @@" with line numbers`;
    }
    const body = countHunkBody(h);
    if (body.old !== h.oldCount || body.new !== h.newCount) {
      return (
        `${name}: hunk ${k + 1} (${h.header.replace(/ @@.*$/, ' @@')}) says ${h.oldCount} old and ${h.newCount} new lines, ` +
        `but its body has ${body.old} old and ${body.new} new lines`
      );
    }
  }
  return { oldPath, newPath, status };
}

/**
 * Why the names of a file section disagree (null when they agree): every name of the old side
 * (`diff --git a/...`, `--- a/...`, `rename from`/`copy from`) must be one path, and so must every
 * name of the new side; and without a rename or copy, both sides must name the same file. git
 * picks one of two disagreeing names itself (the `--- a/x` of `+++ b/x.txt`), so the file it
 * writes would not be the one the patch seems to change.
 */
function namesDisagree(file: FilePatch, gitPaths: { old: string; new: string } | null, ext: Extended): string | null {
  const minus = file.oldPath !== null && file.oldPath !== '/dev/null' ? stripPrefix(file.oldPath, 'a/') : null;
  const plus = file.newPath !== null && file.newPath !== '/dev/null' ? stripPrefix(file.newPath, 'b/') : null;
  const moveFrom = ext.renameFrom ?? ext.copyFrom;
  const moveTo = ext.renameTo ?? ext.copyTo;
  const agree = (names: (string | null | undefined)[]): boolean =>
    new Set(names.filter((x): x is string => x !== null && x !== undefined)).size <= 1;
  const shown = (names: (string | null | undefined)[]): string =>
    [...new Set(names.filter((x): x is string => x !== null && x !== undefined))]
      .map((x) => JSON.stringify(x))
      .join(' and ');
  const olds = [minus, ext.newFile ? null : gitPaths?.old, moveFrom];
  const news = [plus, ext.deletedFile ? null : gitPaths?.new, moveTo];
  if (!agree(olds))
    return `its headers name two different old files (${shown(olds)}); name one file the same way on every line`;
  if (!agree(news))
    return `its headers name two different new files (${shown(news)}); name one file the same way on every line`;
  if (moveFrom !== null || moveTo !== null || ext.newFile || ext.deletedFile) return null;
  const both = [...olds, ...news];
  if (minus !== null && plus !== null && !agree(both))
    return (
      `the --- and +++ lines name different files (${shown(both)}): a change to a file names it the same on both, ` +
      'and a rename needs "rename from" and "rename to" lines'
    );
  if (gitPaths !== null && gitPaths.old !== gitPaths.new && minus === null && plus === null)
    return `the diff --git line names two different files (${shown(both)}) without "rename from" and "rename to" lines`;
  return null;
}

interface Extended {
  modes: string[];
  oldMode: string | null;
  newFile: boolean;
  deletedFile: boolean;
  renameFrom: string | null;
  renameTo: string | null;
  copyFrom: string | null;
  copyTo: string | null;
}

function parseExtended(lines: readonly string[]): Extended {
  const ext: Extended = {
    modes: [],
    oldMode: null,
    newFile: false,
    deletedFile: false,
    renameFrom: null,
    renameTo: null,
    copyFrom: null,
    copyTo: null,
  };
  const value = (l: string, key: string): string => unquoteGitPath(l.slice(key.length).trimEnd());
  for (const l of lines) {
    let m: RegExpExecArray | null;
    if ((m = /^(old mode|new mode|new file mode|deleted file mode) (\S+)/.exec(l))) {
      ext.modes.push(m[2]!);
      if (m[1] === 'old mode') ext.oldMode = m[2]!;
      if (m[1] === 'new file mode') ext.newFile = true;
      if (m[1] === 'deleted file mode') ext.deletedFile = true;
    } else if ((m = /^index \S+ (\S+)/.exec(l))) ext.modes.push(m[1]!);
    else if (l.startsWith('rename from ')) ext.renameFrom = value(l, 'rename from ');
    else if (l.startsWith('rename to ')) ext.renameTo = value(l, 'rename to ');
    else if (l.startsWith('copy from ')) ext.copyFrom = value(l, 'copy from ');
    else if (l.startsWith('copy to ')) ext.copyTo = value(l, 'copy to ');
  }
  return ext;
}

/** The two paths of a `diff --git a/X b/Y` line, without prefixes; null when they cannot be told apart. */
export function parseGitHeader(line: string): { old: string; new: string } | null {
  const rest = line.slice('diff --git '.length);
  const quotedToken = /^"(?:[^"\\]|\\.)*"/;
  let a: string;
  let b: string;
  if (rest.startsWith('"')) {
    const m = quotedToken.exec(rest);
    if (!m) return null;
    a = m[0];
    b = rest.slice(m[0].length + 1);
  } else if (rest.endsWith('"')) {
    const at = rest.lastIndexOf(' "');
    if (at < 0) return null;
    a = rest.slice(0, at);
    b = rest.slice(at + 1);
  } else {
    // Unquoted names may hold spaces: prefer the split that gives two equal names, else the last " b/".
    const half = (rest.length - 1) / 2;
    if (Number.isInteger(half) && rest[half] === ' ' && rest.slice(2, half) === rest.slice(half + 3)) {
      a = rest.slice(0, half);
      b = rest.slice(half + 1);
    } else {
      const at = rest.lastIndexOf(' b/');
      if (at < 0) return null;
      a = rest.slice(0, at);
      b = rest.slice(at + 1);
    }
  }
  a = unquoteGitPath(a);
  b = unquoteGitPath(b);
  if (!a.startsWith('a/') || !b.startsWith('b/')) return null;
  return { old: stripPrefix(a, 'a/'), new: stripPrefix(b, 'b/') };
}

function displayName(file: FilePatch, gitPaths: { old: string; new: string } | null): string {
  const p =
    file.newPath !== null && file.newPath !== '/dev/null'
      ? stripPrefix(file.newPath, 'b/')
      : file.oldPath !== null && file.oldPath !== '/dev/null'
        ? stripPrefix(file.oldPath, 'a/')
        : (gitPaths?.new ?? 'a file');
  return JSON.stringify(p).slice(1, -1);
}
