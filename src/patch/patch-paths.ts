// Paths in diff headers: unquoting git's C-style quoting, and deciding whether a path is safe to
// hand to git (relative, inside the repo, not in .git, no control characters).
import { UNSAFE_CLASS } from '../text/sanitize.js';

/** Undo git's C-style path quoting ("a/x\tb.py", octal escapes for UTF-8 bytes). Unquoted input is returned as is. */
export function unquoteGitPath(raw: string): string {
  if (!(raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"'))) return raw;
  const body = raw.slice(1, -1);
  const bytes: number[] = [];
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      for (const b of Buffer.from(c, 'utf8')) bytes.push(b);
      continue;
    }
    const next = body[i + 1] ?? '';
    const oct = /^[0-3][0-7]{2}/.exec(body.slice(i + 1, i + 4));
    if (oct) {
      bytes.push(parseInt(oct[0], 8));
      i += 3;
    } else if (next in simple) {
      bytes.push(simple[next]!);
      i += 1;
    } else {
      bytes.push(92);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The path of a `--- ` / `+++ ` header line's value: unquoted, without a trailing tab and timestamp. */
export function headerPath(value: string): string {
  const v = value.startsWith('"') ? (/^"(?:[^"\\]|\\.)*"/.exec(value)?.[0] ?? value) : (value.split('\t')[0] ?? '');
  return unquoteGitPath(v.startsWith('"') ? v : v.trimEnd());
}

/** Remove the a/ or b/ prefix git puts on diff paths (/dev/null stays). */
export function stripPrefix(path: string, prefix: 'a/' | 'b/'): string {
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

// Control characters, and invisible characters that make a path display as something it is not.
const UNSAFE_CHARS = new RegExp(`[${UNSAFE_CLASS}]`, 'u');

/** Why a repo-relative path is unsafe for a patch to touch, or null when it is fine. */
export function unsafePathReason(path: string): string | null {
  const shown = JSON.stringify(path);
  if (path === '') return 'an empty path';
  if (UNSAFE_CHARS.test(path)) return `${shown} contains control or invisible characters`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('~'))
    return `${shown} is absolute; paths must be relative to the repository root`;
  if (path.includes('\\')) return `${shown} contains a backslash; use / between directories`;
  for (const seg of path.split('/')) {
    if (seg === '..') return `${shown} leaves the repository (..)`;
    if (seg === '' || seg === '.') return `${shown} is not a normal path (empty or . segment)`;
    if (isDotGit(seg)) return `${shown} is inside .git; patches may not touch git's own files`;
  }
  return null;
}

// ".git" in any case, and the spellings that name it on NTFS/HFS (".git.", ".git ", "git~1").
function isDotGit(segment: string): boolean {
  const s = segment.toLowerCase().replace(/[. ]+$/, '');
  return s === '.git' || s === 'git~1';
}
