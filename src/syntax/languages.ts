// Which grammar reads which file: the languages hammer-box understands, by file extension.
import path from 'node:path';

/** A language the syntax module can parse (TSX is TypeScript with JSX; JavaScript's grammar includes JSX). */
export type LanguageId = 'python' | 'javascript' | 'typescript' | 'tsx' | 'go' | 'rust';

/** Every language id, in a stable order. */
export const LANGUAGE_IDS: readonly LanguageId[] = ['python', 'javascript', 'typescript', 'tsx', 'go', 'rust'];

const BY_EXTENSION: Readonly<Record<string, LanguageId>> = {
  '.py': 'python',
  '.pyi': 'python',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.go': 'go',
  '.rs': 'rust',
};

/** The language of a file path by its extension (case-insensitive), or null when hammer-box has no grammar for it. */
export function languageForPath(filePath: string): LanguageId | null {
  return BY_EXTENSION[path.extname(filePath).toLowerCase()] ?? null;
}

/** The npm package and file holding each language's grammar (a WebAssembly module shipped in the package). */
export const GRAMMAR_FILES: Readonly<Record<LanguageId, { pkg: string; file: string }>> = {
  python: { pkg: 'tree-sitter-python', file: 'tree-sitter-python.wasm' },
  javascript: { pkg: 'tree-sitter-javascript', file: 'tree-sitter-javascript.wasm' },
  typescript: { pkg: 'tree-sitter-typescript', file: 'tree-sitter-typescript.wasm' },
  tsx: { pkg: 'tree-sitter-typescript', file: 'tree-sitter-tsx.wasm' },
  go: { pkg: 'tree-sitter-go', file: 'tree-sitter-go.wasm' },
  rust: { pkg: 'tree-sitter-rust', file: 'tree-sitter-rust.wasm' },
};
