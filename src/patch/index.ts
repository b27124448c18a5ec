// The unified-diff model: parsing, extraction from answers, header repairs, vetting, paths,
// hashing, the path policy and the judgement of a candidate by its effect on the tree. Below src/edits/ and src/loop/; imports neither.
export * from './extract-diff.js';
export * from './validate-diff.js';
export * from './patch-hash.js';
export * from './patch-summary.js';
export * from './path-policy.js';
export * from './package-json-policy.js';
export * from './tree-effect.js';
export {
  parsePatch,
  serializePatch,
  countHunkBody,
  isHunkHeader,
  splitLines,
  type FilePatch,
  type PatchHunk,
  type ParsedPatch,
  type ParseOptions,
} from './parse-patch.js';
export { unsafePathReason, unquoteGitPath, stripPrefix, headerPath } from './patch-paths.js';
export { findFencedBlocks, type FencedBlock } from './fences.js';
export { insertMissingHeaders, repairFileHeaders } from './repair-headers.js';
export { pathHintBefore, pathLine, asPath } from './path-hint.js';
export { fileSides, type FileSides } from './file-paths.js';
