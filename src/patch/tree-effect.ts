// A candidate judged by what it does to the tree, never by what its headers say: the paths it
// adds, deletes and modifies, with their modes before and after, as git's trees record them. That
// list is what the sensitive-path policy, the state, the summary and the commit message use.
// - A path whose entry is a symbolic link or a submodule, before or after, is never changed: a
//   content hunk on a committed link retargets it, whatever mode lines the patch has (or lacks).
// - A sensitive path (policy.sensitive_paths, matched as a checkout would name it) needs
//   allow_sensitive, and is then flagged for review; so does a package.json whose parsed fields
//   that run code differ (see package-json-policy.ts).
import type { PatchFile } from '../state/run-state.js';
import { packageJsonCodeChanges } from './package-json-policy.js';
import { isPackageJson, sensitiveMatcher, type PathPolicy, type SensitiveEdit } from './path-policy.js';
import { unsafePathReason } from './patch-paths.js';

/** A tree entry: its git mode ("100644", "100755", "120000", "160000") and object id. */
export interface EffectEntry {
  mode: string;
  oid: string;
}

/** One path a candidate changes: its entry before and after (null: absent on that side). */
export interface TreeChange {
  path: string;
  before: EffectEntry | null;
  after: EffectEntry | null;
}

/** A rename or copy the patch claims: used only to name a deletion and an addition that match it. */
export interface ClaimedMove {
  from: string;
  to: string;
  copy: boolean;
}

/** The texts of blobs by id, in order (null: not readable whole as text). */
export type ReadBlobTexts = (blobs: readonly { path: string; oid: string }[]) => Promise<(string | null)[]>;

/** What the policy says about a candidate's effect, with the files it changes as the state records them. */
export type EffectVerdict =
  | { kind: 'clean'; files: PatchFile[] }
  /** Allowed by `allow_sensitive`: apply, and flag every edit for review. */
  | { kind: 'flagged'; files: PatchFile[]; edits: SensitiveEdit[]; review: string[] }
  /** Refused; `reason` is what the model is told. */
  | { kind: 'refused'; files: PatchFile[]; edits: SensitiveEdit[]; reason: string };

const REGULAR = new Set(['100644', '100755']);
const KIND: Record<string, string> = { '120000': 'a symbolic link', '160000': 'a submodule' };

/**
 * Judge a candidate by its effect: `changes` is the tree before against the tree after applying
 * it (every path whose entry differs), `read` reads blob texts (for package.json), `claimed` the
 * renames and copies its headers name (for the file list only). Links, submodules and unsafe
 * paths are refused whatever `policy` allows.
 */
export async function judgeEffect(
  changes: readonly TreeChange[],
  policy: PathPolicy,
  read: ReadBlobTexts,
  claimed: readonly ClaimedMove[] = [],
): Promise<EffectVerdict> {
  const files = effectFiles(changes, claimed);
  const hard = changes.map(hardRefusal).find((r) => r !== null);
  if (hard) return { kind: 'refused', files, edits: [], reason: hard };

  const sensitive = sensitiveMatcher(policy.sensitive_paths);
  const edits: SensitiveEdit[] = [];
  const manifests: TreeChange[] = [];
  for (const c of changes) {
    const glob = sensitive(c.path);
    if (glob !== null) edits.push({ path: c.path, why: `matches the sensitive path ${JSON.stringify(glob)}` });
    else if (isPackageJson(c.path)) manifests.push(c);
  }
  if (manifests.length > 0) {
    const blobs = manifests.flatMap((c) =>
      [c.before, c.after].flatMap((e) => (e ? [{ path: c.path, oid: e.oid }] : [])),
    );
    const texts = await read(blobs);
    let i = 0;
    for (const c of manifests) {
      const before = c.before ? (texts[i++] ?? null) : null;
      const after = c.after ? (texts[i++] ?? null) : null;
      const unread = (c.before !== null && before === null) || (c.after !== null && after === null);
      const what = unread ? ['it could not be read whole as text'] : packageJsonCodeChanges(before, after);
      if (what.length > 0)
        edits.push({
          path: c.path,
          why: `changes what the package runs (package scripts and hooks): ${what.join('; ')}`,
        });
    }
  }
  if (edits.length === 0) return { kind: 'clean', files };
  const review = edits.map((e) => `${e.path}: ${e.why}`);
  if (policy.allow_sensitive) return { kind: 'flagged', files, edits, review };
  return {
    kind: 'refused',
    files,
    edits,
    reason:
      `the patch edits ${edits.length === 1 ? 'a sensitive file' : 'sensitive files'} (${review.join('; ')}); ` +
      'CI configuration, hook managers, install triggers, git attributes and submodules, and what a package.json runs may not be changed by this run. ' +
      'Leave those files alone and change only the code and tests',
  };
}

/** Why a change is refused whatever the policy allows (a link, a submodule, an unsafe path), or null. */
function hardRefusal(c: TreeChange): string | null {
  const shown = JSON.stringify(c.path);
  const unsafe = unsafePathReason(c.path);
  if (unsafe !== null) return unsafe;
  if (c.before && !REGULAR.has(c.before.mode)) {
    const kind = KIND[c.before.mode] ?? `an entry of mode ${c.before.mode}`;
    return `${shown} is ${kind} in the repository (mode ${c.before.mode}); a patch may not change, move or delete it, whatever its headers say. Leave it alone and edit regular files only`;
  }
  if (c.after && !REGULAR.has(c.after.mode)) {
    const kind = KIND[c.after.mode] ?? `an entry of mode ${c.after.mode}`;
    return `${shown} would become ${kind} (mode ${c.after.mode}); only regular files (100644, 100755) may be written`;
  }
  return null;
}

/**
 * The files a change list touches, as the state records them: a deletion and an addition that
 * a claimed rename names become one rename, an addition a claimed copy names a copy.
 */
export function effectFiles(changes: readonly TreeChange[], claimed: readonly ClaimedMove[] = []): PatchFile[] {
  const byPath = new Map(changes.map((c) => [c.path, c]));
  const moved = new Map<string, PatchFile>();
  const consumed = new Set<string>();
  for (const m of claimed) {
    const to = byPath.get(m.to);
    if (!to || to.before !== null || to.after === null || moved.has(m.to)) continue;
    const from = byPath.get(m.from);
    if (m.copy) {
      if (from && from.after === null) continue;
      moved.set(m.to, { path: m.to, status: 'copied', from: m.from });
    } else {
      if (!from || from.before === null || from.after !== null || consumed.has(m.from)) continue;
      consumed.add(m.from);
      moved.set(m.to, { path: m.to, status: 'renamed', from: m.from });
    }
  }
  const out: PatchFile[] = [];
  for (const c of changes) {
    if (consumed.has(c.path)) continue;
    const m = moved.get(c.path);
    if (m) out.push(m);
    else out.push({ path: c.path, status: c.before === null ? 'added' : c.after === null ? 'deleted' : 'modified' });
  }
  return out;
}
