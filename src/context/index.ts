// What the prompt shows: the files and regions that matter (failure, directive, imports, changes),
// a repository map, and why each is there. Decides purely; reads through a ContextSource.
export { buildContext } from './build-context.js';
export type { ContextInput } from './context-input.js';
export { changedRanges } from './changed-lines.js';
export { readFailureReport, type FailureReport, type FailureLocation } from './failure-report.js';
export { failureFiles, type FailureFile } from './failure-files.js';
export { ParseCache } from './parse-cache.js';
export { warmContext } from './warm-context.js';
export { FILE_OVERHEAD, type ContextBudget } from './plan.js';
export { sharedPrefixLength } from './shared-prefix.js';
export { memorySource, type ContextSource, type SearchHit } from './source.js';
export { isSourcePath, isTestPath } from './source-files.js';
export * from './types.js';
export { parseAskRequests, type AskCall, type AskRequest } from './ask/parse-requests.js';
export { ASK_TOOLS, toolCallRequests, type AskTool, type AskToolCall } from './ask/tool-calls.js';
export {
  answerRequests,
  repoPath,
  ASK_LIMITS,
  type AskAnswer,
  type AskLimits,
  type AskOutcome,
} from './ask/answer-requests.js';
