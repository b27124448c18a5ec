// What a pip requirements file asks for, as far as the env image's key is concerned: the nested
// files it includes (-r, -c), and whether any line installs from the repository itself (a local
// path, an editable checkout, a local --find-links), which would let setup run repository code.
import { posix } from 'node:path';

/** One requirements file read for the key. */
export interface RequirementsScan {
  /** Repository paths of the files it includes with -r/--requirement and -c/--constraint. */
  nested: string[];
  /** Why a line reaches into the repository (a local path or editable install); null when none does. */
  local: string | null;
}

const NESTED = /^(?:-r|--requirement|-c|--constraint)(?:\s+|=)(\S+)$/;
const EDITABLE = /^(?:-e|--editable)(?:\s+|=)(\S+)/;
const FIND_LINKS = /^(?:-f|--find-links)(?:\s+|=)(\S+)$/;
const URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Logical lines of a requirements file: comments dropped, backslash continuations joined. */
export function requirementLines(text: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '');
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const joined = (pending + line).trim();
    pending = '';
    if (joined !== '') out.push(joined);
  }
  if (pending.trim() !== '') out.push(pending.trim());
  return out;
}

/** True when a requirement (or a -e/-f target) names something on the local file system. */
function isLocal(target: string): boolean {
  if (/^file:/i.test(target)) return true;
  if (URL.test(target) || /^(git|hg|svn|bzr)\+/i.test(target)) return false;
  return target.startsWith('.') || target.startsWith('/') || target.startsWith('~') || /[\\/]/.test(target);
}

/**
 * Scan one requirements file at `path` (a repository path). Nested files are resolved relative to
 * the file's directory, as pip does; one leaving the repository counts as local.
 */
export function scanRequirements(path: string, text: string): RequirementsScan {
  const dir = posix.dirname(path);
  const nested: string[] = [];
  let local: string | null = null;
  const note = (why: string): void => {
    local ??= why;
  };
  for (const line of requirementLines(text)) {
    const n = NESTED.exec(line);
    if (n) {
      const target = n[1]!;
      if (URL.test(target)) continue; // fetched through the proxy like any package
      const resolved = posix.normalize(posix.join(dir, target));
      if (resolved.startsWith('../') || resolved === '..' || posix.isAbsolute(target))
        note(`${path}: ${line} leaves the repository`);
      else nested.push(resolved);
      continue;
    }
    const e = EDITABLE.exec(line);
    if (e) {
      if (isLocal(e[1]!)) note(`${path}: ${line} installs from the repository`);
      continue;
    }
    const f = FIND_LINKS.exec(line);
    if (f) {
      if (isLocal(f[1]!)) note(`${path}: ${line} reads the repository`);
      continue;
    }
    if (line.startsWith('-')) continue; // index options, --pre, --hash, ...
    // "name @ url" or a bare path/URL
    const at = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?\s*@\s*(\S+)/.exec(line);
    const target = at ? at[1]! : (line.split(/[\s;]/)[0] ?? '');
    if (at ? /^file:/i.test(target) : isLocal(target)) note(`${path}: ${line} installs from the repository`);
  }
  return { nested, local };
}
