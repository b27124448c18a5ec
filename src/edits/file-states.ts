// The files an edit touches, as the host read them at the workbench head, turned into what the
// ladder can work with: exact text, missing, or unreadable with the reason.
import type { FileState } from './plan.js';

/** What Workbench.readFiles returns, structurally. */
export interface ReadFilesLike {
  files: readonly { path: string; content: string; bytes: number; truncated: boolean }[];
  skipped: readonly { path: string; reason: string }[];
}

/** Map a readFiles result to FileStates; a file read partly or not as UTF-8 cannot be edited by content. */
export function fileStates(read: ReadFilesLike, maxBytes: number): Map<string, FileState> {
  const out = new Map<string, FileState>();
  for (const f of read.files) {
    if (f.truncated)
      out.set(f.path, {
        kind: 'unreadable',
        reason: `${f.path} is larger than ${maxBytes} bytes, too large to place edits by content`,
      });
    else if (Buffer.byteLength(f.content, 'utf8') !== f.bytes)
      out.set(f.path, { kind: 'unreadable', reason: `${f.path} is not UTF-8 text` });
    else out.set(f.path, { kind: 'text', content: f.content });
  }
  for (const s of read.skipped) {
    if (s.reason === 'missing') continue;
    out.set(s.path, {
      kind: 'unreadable',
      reason: `${s.path} is a ${s.reason === 'symlink' ? 'symbolic link' : s.reason === 'submodule' ? 'submodule' : 'binary file'}; it cannot be edited`,
    });
  }
  return out;
}
