// Which repository paths hammer-box will hand on (into the tar, into the prompt).

/** True for a relative path with no empty, `.`, `..` or `.git` component (any case) and no backslash. */
export function isSafePath(path: string): boolean {
  if (path.length === 0 || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git');
}
