// The host side of the in-sandbox runner: its script, the argv of each op, and its parsed result.
export { runnerScript, runnerScriptPath } from './script.js';
export { PATCH_DIR, RUNNER_OPS, patchPath, runnerArgv } from './argv.js';
export type { RunnerOp } from './argv.js';
export { parseRunnerResult, runnerCannotFork, runnerResultSchema, splitRunnerOutput } from './result.js';
export type { RunnerOutput, RunnerResult } from './result.js';
export { cleanupWhitespace, sandboxCommitId, RUNNER_COMMIT_IDENTITY } from './sandbox-commit.js';
