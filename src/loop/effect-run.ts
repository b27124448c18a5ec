// Step 4's host half for the policy: the candidates the sandbox is offered are judged by what they
// do to the tree (judgeEffect), each applied in the workbench exactly as the sandbox would apply
// it. The first candidate git applies here is the one the sandbox takes (same base, same order),
// so it is judged and the candidates after it are left out; the ones before it git refuses, here
// and in the sandbox, and change nothing. Every way an answer reaches the sandbox passes here.
import type { Candidate } from '../edits/index.js';
import type { Workbench } from '../git/index.js';
import { fileSides } from '../patch/file-paths.js';
import { parsePatch } from '../patch/parse-patch.js';
import type { PathPolicy } from '../patch/path-policy.js';
import { judgeEffect, type ClaimedMove, type ReadBlobTexts } from '../patch/tree-effect.js';
import type { PatchFile } from '../state/run-state.js';

/** The most bytes of a package.json read to judge it (a longer one cannot be judged, so it is sensitive). */
const MANIFEST_READ_BYTES = 1024 * 1024;

/** What the policy made of the candidates: refused (the model is told why), or the ones to offer. */
export type EffectOutcome =
  | { kind: 'refused'; reason: string }
  | {
      kind: 'offer';
      /** The candidates for the sandbox, up to and including the first git applies here. */
      kept: Candidate[];
      /** The files that candidate changes, as its effect says (null: git applies none here). */
      files: PatchFile[] | null;
      /** Sensitive edits allowed by [policy] allow_sensitive, flagged for review. */
      review: string[] | null;
    };

/** Judge `candidates` on top of the workbench's head by their effect on its tree. */
export async function judgeCandidates(
  candidates: readonly Candidate[],
  wb: Workbench,
  policy: PathPolicy,
  opts: { signal?: AbortSignal } = {},
): Promise<EffectOutcome> {
  const sig = opts.signal ? { signal: opts.signal } : {};
  const read: ReadBlobTexts = async (blobs) =>
    (await wb.readBlobs(blobs, { maxBytesPerFile: MANIFEST_READ_BYTES, ...sig })).map((b) =>
      b === null || b.binary || b.truncated ? null : b.content,
    );
  for (const [k, c] of candidates.entries()) {
    const effect = await wb.effectOf(c.patch, { flags: c.flags, ...sig });
    if (!effect.ok) continue; // git refuses it here, and so will the sandbox: it changes nothing
    const verdict = await judgeEffect(effect.changes, policy, read, claimedMoves(c.patch));
    if (verdict.kind === 'refused') return { kind: 'refused', reason: verdict.reason };
    return {
      kind: 'offer',
      kept: candidates.slice(0, k + 1),
      files: verdict.files,
      review: verdict.kind === 'flagged' ? verdict.review : null,
    };
  }
  return { kind: 'offer', kept: [...candidates], files: null, review: null };
}

// The renames and copies a candidate's headers claim (they only name what the trees show).
function claimedMoves(patch: string): ClaimedMove[] {
  const out: ClaimedMove[] = [];
  for (const f of parsePatch(patch, { overflow: 'hunk' }).files) {
    const s = fileSides(f);
    if (s.oldPath !== null && s.newPath !== null && s.oldPath !== s.newPath)
      out.push({ from: s.oldPath, to: s.newPath, copy: s.copy });
  }
  return out;
}
