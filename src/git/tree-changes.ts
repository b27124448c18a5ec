// The paths whose entries differ between two trees, with their modes and ids on each side
// (`git diff-tree -r -z --raw --no-renames`): what a patch did, whatever its headers said.
import { HammerError } from '../errors.js';
import { runGit, type GitOptions } from './git-exec.js';
import { assertObjectId } from './object-id.js';

/** One side of a changed path: its git mode and object id. */
export interface ChangedEntry {
  mode: string;
  oid: string;
}

/** One path that differs between two trees (null: absent on that side). */
export interface TreeChangeEntry {
  path: string;
  before: ChangedEntry | null;
  after: ChangedEntry | null;
}

/** Every non-tree path whose entry differs between `from` and `to` (trees or commits), in git's order. */
export async function treeChanges(from: string, to: string, git: GitOptions): Promise<TreeChangeEntry[]> {
  assertObjectId(from);
  assertObjectId(to);
  if (from === to) return [];
  const out = await runGit(['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', from, to], git);
  return parseRawDiff(out.stdout);
}

/** Parse `git diff-tree -z --raw` output: `:<mode> <mode> <oid> <oid> <status>\0<path>\0` per path. */
export function parseRawDiff(data: Buffer): TreeChangeEntry[] {
  const fields = data.toString('utf8').split('\0');
  const out: TreeChangeEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/.exec(fields[i]!);
    if (!m)
      throw new HammerError('GIT_FAILED', `unexpected diff-tree output: ${JSON.stringify(fields[i]!.slice(0, 80))}`);
    const side = (mode: string, oid: string): ChangedEntry | null => (/^0+$/.test(mode) ? null : { mode, oid });
    out.push({ path: fields[i + 1]!, before: side(m[1]!, m[3]!), after: side(m[2]!, m[4]!) });
  }
  return out;
}
