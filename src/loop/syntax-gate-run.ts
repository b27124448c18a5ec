// Step 4's host half for the syntax gate: each candidate is applied in the workbench's scratch
// index (nothing committed, no tree written), its touched files are read back from that index and
// parsed, and a candidate that adds a syntax error the file did not have is left out of the
// sandbox's ladder.
import {
  firstNewSyntaxError,
  gateReads,
  type Candidate,
  type EditFailure,
  type GateFile,
  type NewSyntaxError,
  type ProblemCache,
} from '../edits/index.js';
import type { ReadFilesResult, Workbench } from '../git/index.js';
import { fileSides } from '../patch/file-paths.js';
import { parsePatch } from '../patch/parse-patch.js';
import type { Iteration } from '../state/run-state.js';

/** The most bytes of a touched file the gate reads; a longer file is not judged. */
const GATE_READ_BYTES = 2 * 1024 * 1024;

/** What the gate did in one iteration, as the state records it. */
export type GateRecord = NonNullable<Iteration['syntax_gate']>;

/** The candidates left for the sandbox, the record, and (when every candidate was skipped, or some were) the first new error as feedback. */
export interface GateOutcome {
  kept: Candidate[];
  record: GateRecord;
  failure: EditFailure | null;
}

/** Run the gate over `candidates` on top of the workbench's head (off: every candidate is kept). */
export async function gateCandidates(
  candidates: readonly Candidate[],
  wb: Workbench,
  opts: { enabled: boolean; signal?: AbortSignal },
): Promise<GateOutcome> {
  if (!opts.enabled) return { kept: [...candidates], record: { on: false, files: [], skipped: [] }, failure: null };
  const sig = opts.signal ? { signal: opts.signal } : {};
  const touched = candidates.map(touchedFiles);
  const files = [...new Set(touched.flat().flatMap((t) => [t.oldPath, t.newPath]))].filter(
    (p): p is string => p !== null && gateReads(p),
  );
  const record: GateRecord = { on: true, files, skipped: [] };
  if (files.length === 0) return { kept: [...candidates], record, failure: null };

  // the files as they are, read while the first candidate is applied in the scratch index
  const beforeRead = readTexts(wb, wb.head(), files, sig);
  beforeRead.catch(() => undefined); // awaited below; a failure surfaces there
  const cache: ProblemCache = new Map();
  const kept: Candidate[] = [];
  let first: NewSyntaxError | null = null;
  for (const [k, c] of candidates.entries()) {
    const gated = touched[k]!.filter((t) => {
      const p = t.newPath ?? t.oldPath;
      return p !== null && gateReads(p);
    });
    if (gated.length === 0) {
      kept.push(c);
      continue;
    }
    const applied = await wb.filesAfter(
      c.patch,
      gated.flatMap((t) => (t.newPath === null ? [] : [t.newPath])),
      { flags: c.flags, maxBytesPerFile: GATE_READ_BYTES, ...sig },
    );
    if (!applied.ok) {
      kept.push(c); // git refuses it here, and so will the sandbox: nothing to judge
      continue;
    }
    const before = await beforeRead;
    const after = textsOf(applied.read);
    const gateFiles: GateFile[] = [];
    for (const t of gated) {
      const b = t.oldPath === null ? null : before.get(t.oldPath);
      const a = t.newPath === null ? null : after.get(t.newPath);
      // a file too long (or unreadable) to read whole is not judged
      if (b === undefined || a === undefined) continue;
      gateFiles.push({ path: t.newPath ?? t.oldPath!, before: b, after: a });
    }
    const error = await firstNewSyntaxError(gateFiles, cache);
    if (error === null) {
      kept.push(c);
      // git applies this one here, so the sandbox's check (same base, in the same order) takes it
      // and never reaches the candidates after it: they are neither judged nor sent
      break;
    }
    first ??= error;
    record.skipped.push({ rung: c.rung, path: error.path, line: error.line, message: error.message });
  }
  const failure: EditFailure | null =
    first === null
      ? null
      : {
          path: first.path,
          what: kept.length === 0 ? 'the edit' : `the ${record.skipped.map((s) => s.rung).join(', ')} candidate`,
          kind: 'syntax_error',
          line: first.line,
          column: first.column,
          message: first.message,
          region: first.region,
          every: kept.length === 0,
        };
  return { kept, record, failure };
}

// The files a vetted candidate patch touches, in repo paths.
function touchedFiles(c: Candidate): { oldPath: string | null; newPath: string | null }[] {
  return parsePatch(c.patch, { overflow: 'hunk' }).files.map((f) => {
    const s = fileSides(f);
    return { oldPath: s.oldPath, newPath: s.newPath };
  });
}

// Whole texts of `paths` at a commit or tree: a path missing there maps to null, one too long is left out.
async function readTexts(
  wb: Workbench,
  at: string,
  paths: readonly string[],
  sig: { signal?: AbortSignal },
): Promise<Map<string, string | null>> {
  if (paths.length === 0) return new Map();
  return textsOf(await wb.readFiles(at, paths, { maxBytesPerFile: GATE_READ_BYTES, ...sig }));
}

// whole texts by path: a path missing maps to null, one too long (or binary, a link) is left out
function textsOf(read: ReadFilesResult): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const f of read.files) if (!f.truncated) out.set(f.path, f.content);
  for (const s of read.skipped) if (s.reason === 'missing') out.set(s.path, null);
  return out;
}
