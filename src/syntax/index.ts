// Understanding source code (tree-sitter through web-tree-sitter): one home for parse problems,
// definitions, imports and identifiers of Python, JavaScript, TypeScript/TSX, Go and Rust.
export {
  analyzeSource,
  enclosingDefinitions,
  findDefinitions,
  findIdentifiers,
  findImports,
  parseProblems,
  type AnalysisParts,
} from './analyze.js';
export { LANGUAGE_IDS, languageForPath, type LanguageId } from './languages.js';
export { MAX_PROBLEMS } from './problems.js';
export { DEFAULT_TIMEOUT_MS, preloadGrammars, type SyntaxOptions } from './runtime.js';
export type {
  Definition,
  DefinitionKind,
  IdentifierUse,
  ImportKind,
  ImportRef,
  SourceAnalysis,
  SourcePosition,
  SyntaxProblem,
  SyntaxProblemKind,
} from './types.js';
