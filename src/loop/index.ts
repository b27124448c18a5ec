// The loop's functional core: extraction, validation, stop conditions, prompt, events.
export * from './events.js';
export * from './extract-diff.js';
export * from './validate-diff.js';
export * from './interpret-answer.js';
export * from './patch-hash.js';
export * from './stop-conditions.js';
export * from './signal.js';
export * from './context.js';
export * from './prompt.js';
export * from './test-record.js';
export * from './patch-summary.js';
export {
  parsePatch,
  serializePatch,
  countHunkBody,
  type FilePatch,
  type PatchHunk,
  type ParsedPatch,
} from './parse-patch.js';
export { unsafePathReason, unquoteGitPath } from './patch-paths.js';
export { findFencedBlocks, type FencedBlock } from './fences.js';
