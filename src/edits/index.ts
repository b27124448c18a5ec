// Edits as real models write them: answer parsing (unified diffs and SEARCH/REPLACE blocks),
// repairs, the apply ladder's candidates, and feedback when nothing applies.
export { APPLY_FLAGS, type ApplyFlag, type Candidate } from './rungs.js';
export { RUNGS, rungLabel, rungNumber, type Rung } from '../state/rungs.js';
export {
  parseAnswer,
  renderSearchReplace,
  type AnswerEdits,
  type AnswerOptions,
  type EditFormat,
  type ParsedAnswer,
} from './parse-answer.js';
export { parseSearchReplace, hasSearchReplace, type SearchReplaceBlock } from './search-replace.js';
export { planEdits, vetEdits, type EditPlan, type FileState, type PlanOptions, type VettedEdits } from './plan.js';
export { rejectionText, renderFailures } from './feedback.js';
export { fileStates, type ReadFilesLike } from './file-states.js';
export type { EditFailure } from './failures.js';
export { applySearchEdits, type SearchEdit } from './apply-search-replace.js';
export { applyHunks, hunkSides } from './apply-hunks.js';
export { locateLines, indexLines, type Location } from './locate.js';
export { closestRegion, missingLines, type Region } from './closest-region.js';
export { splitFileText, joinFileText, type FileText } from './file-text.js';
export { renderFileDiff, type FileChange } from './file-diff.js';
export { recountFiles } from './recount.js';
export {
  firstNewSyntaxError,
  gateReads,
  type GateFile,
  type NewSyntaxError,
  type ProblemCache,
} from './syntax-gate.js';
export { detectCutOff, cutInFile, cutOffReason, LENGTH_REASON, type CutOff } from './cut-off.js';
