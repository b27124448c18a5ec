// From an answer's edits to the apply ladder's candidates: vet first (paths, modes, binary, size,
// before any file is read), then build each rung's patch: the diff as written, recounted,
// whitespace-tolerant, its hunks relocated by context in the current content, and
// search/replace. Every candidate passes validateDiff before it can reach git.
import { serializePatch, type FilePatch, type PatchHunk } from '../patch/parse-patch.js';
import { patchHash } from '../patch/patch-hash.js';
import { unsafePathReason } from '../patch/patch-paths.js';
import { validateDiff, type ValidatedFile } from '../patch/validate-diff.js';
import { applyHunks, hunkLabel, hunkSides } from './apply-hunks.js';
import { applySearchEdits, type SearchEdit } from './apply-search-replace.js';
import type { EditFailure } from './failures.js';
import { renderFileDiff, type FileChange } from './file-diff.js';
import { fileSides } from '../patch/file-paths.js';
import { joinFileText, splitFileText, type FileText } from './file-text.js';
import type { AnswerEdits } from './parse-answer.js';
import { renderSearchReplace } from './parse-answer.js';
import { blocksChangeNothing, diffChangesNothing } from './no-change.js';
import { recountFiles } from './recount.js';
import type { ApplyFlag, Candidate } from './rungs.js';

/** A file as the host read it at the workbench head. */
export type FileState =
  { kind: 'text'; content: string } | { kind: 'missing' } | { kind: 'unreadable'; reason: string };

/** Options of the ladder. */
export interface PlanOptions {
  maxDiffLines: number;
  /** Only the first rung (`[edits] strict`). */
  strict: boolean;
}

/** Edits that passed vetting, and the repo paths whose content the later rungs need. */
export type VettedEdits =
  { kind: 'vetted'; edits: AnswerEdits; paths: string[]; recounted: FilePatch[] } | { kind: 'refused'; reason: string };

/** The ladder for one answer: what to record, the candidates in rung order, and why later rungs could not be built. */
export interface EditPlan {
  /** What the model meant, as the run records it: the extracted diff, or the SEARCH/REPLACE blocks. */
  text: string;
  hash: string;
  files: ValidatedFile[];
  lines: number;
  added: number;
  removed: number;
  candidates: Candidate[];
  /** Hunks or blocks that could not be placed in the current content (for the next prompt). */
  failures: EditFailure[];
  /** What the host-built candidates left out, as sentences for the run's record ("... is already applied; left out"). */
  notes: string[];
}

/** Vet an answer's edits before anything is read: every path, mode and size, as validateDiff would. */
export function vetEdits(edits: AnswerEdits, options: PlanOptions): VettedEdits {
  if (edits.kind === 'search_replace') {
    for (const b of edits.blocks) {
      const unsafe = unsafePathReason(b.path);
      if (unsafe !== null) return { kind: 'refused', reason: unsafe };
    }
    const lines = renderSearchReplace(edits.blocks).split('\n').length - 1;
    if (lines > options.maxDiffLines)
      return {
        kind: 'refused',
        reason: `the edit has ${lines} lines, over the limit of ${options.maxDiffLines}: make a smaller change`,
      };
    return { kind: 'vetted', edits, paths: [...new Set(edits.blocks.map((b) => b.path))], recounted: [] };
  }
  if (options.strict) {
    const v = validateDiff(edits.patch, { maxDiffLines: options.maxDiffLines });
    if (!v.ok) return { kind: 'refused', reason: v.reason };
  }
  const recounted = recountFiles(edits.files);
  const v = validateDiff(serializePatch(recounted), { maxDiffLines: options.maxDiffLines });
  if (!v.ok) return { kind: 'refused', reason: v.reason };
  const paths = new Set<string>();
  for (const f of edits.files) {
    const s = fileSides(f);
    if (s.oldPath !== null) paths.add(s.oldPath);
    else if (s.newPath !== null) paths.add(s.newPath);
  }
  return { kind: 'vetted', edits, paths: [...paths], recounted };
}

/** Build the ladder's candidates from vetted edits and the content of their files. */
export function planEdits(
  vetted: Extract<VettedEdits, { kind: 'vetted' }>,
  contents: ReadonlyMap<string, FileState>,
  options: PlanOptions,
): EditPlan {
  const { edits } = vetted;
  return edits.kind === 'udiff'
    ? planUdiff(edits, vetted.recounted, contents, options)
    : planSearchReplace(edits, contents, options);
}

function planUdiff(
  edits: Extract<AnswerEdits, { kind: 'udiff' }>,
  recounted: FilePatch[],
  contents: ReadonlyMap<string, FileState>,
  options: PlanOptions,
): EditPlan {
  const recText = serializePatch(recounted);
  const vet = validateDiff(recText, { maxDiffLines: options.maxDiffLines });
  const base = vet.ok
    ? { files: vet.files, lines: vet.lines, added: vet.added, removed: vet.removed }
    : { files: [], lines: 0, added: 0, removed: 0 };
  const plan: EditPlan = {
    text: edits.patch,
    hash: patchHash(edits.patch),
    ...base,
    candidates: [],
    failures: [],
    notes: [],
  };
  const nothing = diffChangesNothing(edits.files);
  if (nothing !== null) return { ...plan, failures: nothing };
  const numbered = edits.files.every((f) => f.hunks.every((h) => h.numbered));
  const asIsOk = numbered && validateDiff(edits.patch, { maxDiffLines: options.maxDiffLines }).ok;
  const guessed = new Set(edits.guessed);
  const relocated = fromContents(edits.files, contents, 'relocate', guessed);
  const failed = relocated.ok ? [] : relocated.failures;
  // a guessed file name that is not a file is not the model's file; when every hunk is already
  // applied there is nothing left to apply
  if (failed.some((f) => f.kind === 'guessed_path') || (failed.length > 0 && failed.every(isAlready)))
    return { ...plan, failures: failed };
  const already = relocated.ok ? relocated.skipped : failed.filter(isAlready);
  // git would refuse a hunk already applied or, placing it by its context, insert its lines a
  // second time: with one in the answer, only the host-built rungs (which leave it out) may apply
  // it, and strict mode's one rung may not
  if (already.length > 0 && options.strict)
    return { ...plan, failures: [...failed.filter((f) => !isAlready(f)), ...already] };
  if (options.strict) {
    if (asIsOk) plan.candidates.push({ rung: 'as_is', flags: [], patch: edits.patch });
    return plan;
  }

  const searched = fromContents(edits.files, contents, 'search_replace', guessed);
  if (!relocated.ok && !searched.ok && searched.failures.some(isAlready)) {
    // placed only after dropping edge context, the change is already there: say so for those hunks
    const done = new Map(searched.failures.filter(isAlready).map((f) => [key(f), f]));
    return { ...plan, failures: relocated.failures.map((f) => done.get(key(f)) ?? f) };
  }
  const skippedBySearch = searched.ok ? searched.skipped : [];
  const gitRungs = already.length === 0 && skippedBySearch.length === 0;
  if (asIsOk && gitRungs) plan.candidates.push({ rung: 'as_is', flags: [], patch: edits.patch });
  const recount = recText !== edits.patch || !asIsOk;
  if (numbered && vet.ok && gitRungs) {
    if (recount) plan.candidates.push({ rung: 'recount', flags: ['--recount'], patch: recText });
    // git --ignore-whitespace inserts the model's added lines verbatim: when relocation had to
    // re-indent them, give them CRLF ends or keep a missing final newline, that rung would apply
    // a different (wrong) file, so it is left out and relocation applies the change instead
    if (!(relocated.ok && relocated.adjusted)) {
      const flags: ApplyFlag[] = recount ? ['--recount', '--ignore-whitespace'] : ['--ignore-whitespace'];
      plan.candidates.push({ rung: 'whitespace', flags, patch: recText });
    }
  }
  const reloc = relocated.ok ? vetted(relocated, options) : relocated;
  if (reloc.ok) plan.candidates.push({ rung: 'relocated', flags: [], patch: reloc.patch });
  const sr = searched.ok ? vetted(searched, options) : searched;
  if (sr.ok && !(reloc.ok && reloc.patch === sr.patch))
    plan.candidates.push({ rung: 'search_replace', flags: [], patch: sr.patch });
  if (!reloc.ok) plan.failures = reloc.failures;
  // the hunks a host-built candidate leaves out, for the record
  const left = reloc.ok ? reloc.skipped : sr.ok ? sr.skipped : [];
  plan.notes = left.map(leftOutNote);
  plan.candidates = dedupe(plan.candidates);
  return plan;
}

function planSearchReplace(
  edits: Extract<AnswerEdits, { kind: 'search_replace' }>,
  contents: ReadonlyMap<string, FileState>,
  options: PlanOptions,
): EditPlan {
  const text = renderSearchReplace(edits.blocks);
  const byPath = new Map<string, SearchEdit[]>();
  edits.blocks.forEach((b, k) => {
    const list = byPath.get(b.path) ?? [];
    list.push({ what: `SEARCH/REPLACE block ${k + 1}`, search: b.search, replace: b.replace });
    byPath.set(b.path, list);
  });
  const changes: FileChange[] = [];
  const failures: EditFailure[] = blocksChangeNothing(edits.blocks) ?? [];
  const skipped: EditFailure[] = [];
  for (const [path, list] of failures.length > 0 ? [] : byPath) {
    const state = contents.get(path) ?? { kind: 'missing' };
    if (state.kind === 'unreadable') {
      failures.push({ path, what: list[0]!.what, kind: 'unreadable', reason: state.reason });
      continue;
    }
    const before = state.kind === 'text' ? state.content : null;
    const r = applySearchEdits(path, before === null ? null : splitFileText(before), list, 'blank');
    if (!r.ok) failures.push(...r.failures);
    else {
      skipped.push(...r.skipped);
      changes.push({ oldPath: before === null ? null : path, newPath: path, before, after: joinFileText(r.text) });
    }
  }
  const added = edits.blocks.reduce((n, b) => n + b.replace.length, 0);
  const removed = edits.blocks.reduce((n, b) => n + b.search.length, 0);
  const plan: EditPlan = {
    text,
    hash: patchHash(text),
    files: [...byPath.keys()].map((p) => ({ oldPath: p, newPath: p, status: 'modified' })),
    lines: text.split('\n').length - 1,
    added,
    removed,
    candidates: [],
    failures,
    notes: skipped.map(leftOutNote),
  };
  if (failures.length > 0) return plan;
  const patch = changes.map(renderFileDiff).join('');
  // every block is already applied
  if (patch === '' && skipped.length > 0) return { ...plan, failures: skipped, notes: [] };
  if (patch === '') {
    plan.failures = [
      {
        path: edits.blocks[0]?.path ?? '?',
        what: 'the answer',
        kind: 'invalid',
        reason: 'its REPLACE lines equal its SEARCH lines, so it changes nothing',
      },
    ];
    return plan;
  }
  const v = validateDiff(patch, { maxDiffLines: options.maxDiffLines });
  if (!v.ok) {
    plan.failures = [{ path: edits.blocks[0]?.path ?? '?', what: 'the answer', kind: 'invalid', reason: v.reason }];
    return plan;
  }
  return {
    ...plan,
    files: v.files,
    added: v.added,
    removed: v.removed,
    candidates: [{ rung: 'search_replace', flags: [], patch }],
  };
}

/**
 * A host-built patch, or why it could not be built. `skipped`: hunks left out because they are
 * already applied (on failure, among `failures`).
 */
type Built =
  { ok: true; patch: string; adjusted: boolean; skipped: EditFailure[] } | { ok: false; failures: EditFailure[] };

// The relocated or search/replace patch of a diff: each file's hunks applied to its current
// content in memory, and the result diffed against it.
function fromContents(
  files: readonly FilePatch[],
  contents: ReadonlyMap<string, FileState>,
  mode: 'relocate' | 'search_replace',
  /** Paths named only by a guess from the text: they must exist unless the hunks create the file. */
  guessed: ReadonlySet<string>,
): Built {
  const changes: FileChange[] = [];
  const failures: EditFailure[] = [];
  const skipped: EditFailure[] = [];
  let adjusted = false;
  for (const group of groupByFile(files)) {
    const sides = fileSides(group[0]!);
    const hunks = group.flatMap((f) => f.hunks);
    const path = sides.oldPath ?? sides.newPath ?? '?';
    if (sides.copy) {
      failures.push({ path, what: 'the copy', kind: 'invalid', reason: 'a copy is applied only as written' });
      continue;
    }
    const state = contents.get(path) ?? { kind: 'missing' };
    if (state.kind === 'unreadable') {
      failures.push({ path, what: 'the file', kind: 'unreadable', reason: state.reason });
      continue;
    }
    if (
      sides.oldPath === null ||
      (state.kind === 'missing' && hunks.length > 0 && hunks.every((h) => hunkSides(h).old.length === 0))
    ) {
      // a new file (also "--- a/new.py" with only added lines, for a file that does not exist)
      if (state.kind === 'text') failures.push({ path, what: 'the new file', kind: 'exists' });
      else
        changes.push({
          oldPath: null,
          newPath: sides.newPath ?? path,
          before: null,
          after: newFileContent(hunks),
          modes: sides.modes,
        });
      continue;
    }
    if (state.kind === 'missing') {
      const what = hunks[0] ? hunkLabel(hunks[0], 0) : 'the file';
      failures.push({ path, what, kind: guessed.has(path) ? 'guessed_path' : 'no_file' });
      continue;
    }
    const text = splitFileText(state.content);
    let after: FileText = text;
    if (hunks.length > 0) {
      const r =
        mode === 'relocate'
          ? applyHunks(path, text, hunks)
          : applySearchEdits(path, text, hunks.map(toSearchEdit), 'context');
      if (!r.ok) {
        failures.push(...r.failures);
        continue;
      }
      after = r.text;
      adjusted ||= r.adjusted;
      skipped.push(...r.skipped);
    }
    if (sides.newPath === null) {
      if (joinFileText(after) !== '' && hunks.length > 0) {
        failures.push({ path, what: 'the deletion', kind: 'not_whole_file' });
        continue;
      }
      changes.push({ oldPath: path, newPath: null, before: state.content, after: null, modes: sides.modes });
      continue;
    }
    changes.push({
      oldPath: path,
      newPath: sides.newPath,
      before: state.content,
      after: joinFileText(after),
      modes: sides.modes,
    });
  }
  if (failures.length > 0) return { ok: false, failures: [...failures, ...skipped] };
  const patch = changes.map(renderFileDiff).join('');
  // every hunk is already applied: nothing is left to apply
  if (patch === '' && skipped.length > 0) return { ok: false, failures: skipped };
  if (patch === '')
    return {
      ok: false,
      failures: [
        {
          path: changes[0]?.oldPath ?? changes[0]?.newPath ?? '?',
          what: 'the diff',
          kind: 'invalid',
          reason: 'it changes nothing',
        },
      ],
    };
  return { ok: true, patch, adjusted, skipped };
}

function isAlready(f: EditFailure): boolean {
  return f.kind === 'already_applied';
}

// "requests/models.py, hunk 1 (@@ -10,1 +10,2 @@) is already applied (lines 10-11); left out"
function leftOutNote(f: EditFailure): string {
  const where =
    f.kind === 'already_applied' ? ` (${f.count === 1 ? `line ${f.at}` : `lines ${f.at}-${f.at + f.count - 1}`})` : '';
  return `${f.path}, ${f.what} is already applied${where}; left out`;
}

function key(f: EditFailure): string {
  return `${f.path}\u0000${f.what}`;
}

function vetted(built: Extract<Built, { ok: true }>, options: PlanOptions): Built {
  const v = validateDiff(built.patch, { maxDiffLines: options.maxDiffLines });
  if (v.ok) return built;
  return {
    ok: false,
    failures: [{ path: v.reason.split(':')[0] ?? '?', what: 'the rebuilt diff', kind: 'invalid', reason: v.reason }],
  };
}

// Sections of the same file (a model may split one file's hunks over several blocks) in order.
function groupByFile(files: readonly FilePatch[]): FilePatch[][] {
  const groups = new Map<string, FilePatch[]>();
  for (const f of files) {
    const s = fileSides(f);
    const key = `${s.oldPath ?? ''}\u0000${s.newPath ?? ''}`;
    const g = groups.get(key);
    if (g) g.push(f);
    else groups.set(key, [f]);
  }
  return [...groups.values()];
}

function newFileContent(hunks: readonly PatchHunk[]): string {
  const sides = hunks.map(hunkSides);
  const lines = sides.flatMap((s) => s.new);
  if (lines.length === 0) return '';
  return `${lines.join('\n')}${sides.at(-1)?.noFinalNewline ? '' : '\n'}`;
}

function toSearchEdit(h: PatchHunk, k: number): SearchEdit {
  const s = hunkSides(h);
  return { what: hunkLabel(h, k), search: s.old, replace: s.new };
}

function dedupe(candidates: readonly Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((c) => {
    const key = `${c.flags.join(' ')}\u0000${c.patch}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
