// Rung 2's repair: every hunk header rewritten from its body ("@@ -a,b +c,d @@" with the counts
// the body has), new-side starts following from the hunks before, and hunks without numbers given
// placeholder starts so the patch can be vetted (only relocation places such hunks).
import { countHunkBody, type FilePatch, type PatchHunk } from '../patch/parse-patch.js';

/** The file sections with every hunk header recomputed from its body. */
export function recountFiles(files: readonly FilePatch[]): FilePatch[] {
  return files.map((f) => {
    let delta = 0;
    let nextOld = 1;
    const creating = f.oldPath === '/dev/null';
    const hunks = f.hunks.map((h): PatchHunk => {
      const body = countHunkBody(h);
      let oldStart = h.numbered ? h.oldStart : creating ? 0 : nextOld;
      if (body.old > 0 && oldStart === 0) oldStart = 1;
      const newStart =
        body.old === 0
          ? body.new === 0
            ? oldStart + delta
            : oldStart + delta + 1
          : body.new === 0
            ? oldStart + delta - 1
            : oldStart + delta;
      delta += body.new - body.old;
      nextOld = oldStart + Math.max(body.old, 1);
      const section = h.numbered ? (/^@@[^@]*@@(.*)$/.exec(h.header)?.[1] ?? '') : '';
      const header = `@@ -${oldStart},${body.old} +${Math.max(newStart, 0)},${body.new} @@${section}`;
      return {
        ...h,
        header,
        numbered: true,
        canonical: true,
        oldStart,
        oldCount: body.old,
        newStart: Math.max(newStart, 0),
        newCount: body.new,
      };
    });
    return { ...f, hunks };
  });
}
