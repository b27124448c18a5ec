// Steps 3 and the host half of 4 together: from a model's answer to the apply ladder's vetted
// candidates, NO_CHANGES, or the reason the answer cannot be used. The content of the files the
// edits touch is read through `read` (the workbench head, identical to the sandbox's tree).
import {
  cutInFile,
  cutOffReason,
  detectCutOff,
  parseAnswer,
  planEdits,
  vetEdits,
  type Candidate,
  type CutOff,
  type EditFailure,
  type EditFormat,
  type FileState,
} from '../edits/index.js';
import type { ValidatedFile } from '../patch/validate-diff.js';

/** A model answer, interpreted. */
export type Interpretation =
  | {
      kind: 'diff';
      /** What the model meant, as recorded: the extracted diff, or its SEARCH/REPLACE blocks. */
      patch: string;
      format: 'udiff' | 'search_replace';
      files: ValidatedFile[];
      lines: number;
      added: number;
      removed: number;
      hash: string;
      blocks: number;
      fixes: string[];
      /** The ladder's candidates in rung order (empty: nothing can apply; see failures). */
      candidates: Candidate[];
      /** Hunks or blocks that could not be placed in the current content. */
      failures: EditFailure[];
    }
  | { kind: 'no_changes' }
  /** `cutOff`: the answer was cut off at the token limit (nothing of it is used). */
  | { kind: 'unusable'; reason: string; cutOff?: CutOff };

/** How answers are read and how far the ladder goes. */
export interface InterpretOptions {
  maxDiffLines: number;
  format?: EditFormat;
  strict?: boolean;
  /** Why the model stopped, as the server said ("length": the token limit); undefined when it did not say. */
  finishReason?: string;
}

/** Reads the current content of repo paths (a path missing from the result does not exist). */
export type ReadForEdits = (paths: string[]) => Promise<ReadonlyMap<string, FileState>>;

const readNothing: ReadForEdits = async () => new Map();

/**
 * Extract the edits from an answer, vet them, and build the ladder; anything unacceptable becomes
 * 'unusable' with its reason. A cut-off answer (as the server or the text shows it, or as its last
 * line against the file does) is unusable as a whole.
 */
export async function interpretAnswer(
  answer: string,
  options: InterpretOptions,
  read: ReadForEdits = readNothing,
): Promise<Interpretation> {
  const strict = options.strict ?? false;
  const cut = detectCutOff(answer, options.finishReason);
  const cutOff = (c: CutOff): Interpretation => ({ kind: 'unusable', reason: cutOffReason(c), cutOff: c });
  // the server's word with no place in the text: the file may still show where it stops
  if (cut !== null && cut.where !== '') return cutOff(cut);
  const parsed = parseAnswer(answer, { format: options.format ?? 'auto', strict });
  if (parsed.kind !== 'edits') return cut !== null ? cutOff(cut) : parsed;
  const planOptions = { maxDiffLines: options.maxDiffLines, strict };
  const vetted = vetEdits(parsed.edits, planOptions);
  if (vetted.kind === 'refused') return cut ? cutOff(cut) : { kind: 'unusable', reason: vetted.reason };
  // read in strict mode too: an edit that is already applied is refused at every rung
  const contents = vetted.paths.length === 0 ? new Map<string, FileState>() : await read(vetted.paths);
  // a last line that is only the start of the file's line there: the file shows the cut
  const inFile =
    parsed.edits.kind === 'udiff'
      ? cutInFile(answer, options.finishReason, parsed.edits.files, (p) => {
          const s = contents.get(p);
          return s?.kind === 'text' ? s.content : null;
        })
      : null;
  if (inFile !== null) return cutOff(inFile);
  if (cut !== null) return cutOff(cut);
  const plan = planEdits(vetted, contents, planOptions);
  const edits = parsed.edits;
  return {
    kind: 'diff',
    patch: plan.text,
    format: edits.kind,
    files: plan.files,
    lines: plan.lines,
    added: plan.added,
    removed: plan.removed,
    hash: plan.hash,
    blocks: edits.kind === 'udiff' ? edits.blocks : edits.blocks.length,
    fixes: [...edits.fixes, ...plan.notes],
    candidates: plan.candidates,
    failures: plan.failures,
  };
}
