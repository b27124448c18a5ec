// What the syntax module says about a source text: plain data, no parser types.
import type { LanguageId } from './languages.js';

/** Lines and columns are 1-based; columns count UTF-16 code units, as JavaScript strings do. */
export interface SourcePosition {
  line: number;
  column: number;
}

/**
 * Why a text does not parse: a syntax error, a token the parser had to assume, a parameter named twice,
 * or a text the parser gave up on within its time budget (then the only problem reported).
 */
export type SyntaxProblemKind = 'error' | 'missing' | 'duplicate-parameter' | 'timeout';

/** One problem in a text, where it starts, and the source line it is on. */
export interface SyntaxProblem extends SourcePosition {
  kind: SyntaxProblemKind;
  /** A short description, stable across edits elsewhere in the file (it names no line number). */
  message: string;
  /** The source line the problem starts on (trimmed at the right, at most 160 characters). */
  excerpt: string;
}

/** What a definition is. */
export type DefinitionKind =
  | 'function'
  | 'method'
  | 'class'
  | 'interface'
  | 'type'
  | 'struct'
  | 'enum'
  | 'trait'
  | 'impl'
  | 'module'
  | 'const'
  | 'variable'
  | 'macro';

/** A definition in a text: a function, class, method, type, constant, and where it is. */
export interface Definition {
  kind: DefinitionKind;
  name: string;
  /** The name with its containers: `Class.method`, `outer.inner`, Go `Stack.Push`, Rust `Stack::push`. */
  qualifiedName: string;
  /** First line, including decorators, attributes and an `export` in front of it. */
  startLine: number;
  /** Last line of its body. */
  endLine: number;
  /** How many definitions contain it (0 at the top level). */
  depth: number;
  /** Its header on one line: `def add(a, b) -> int`, `impl<T> Display for Stack<T>` (at most 200 characters). */
  signature: string;
}

/** How an import is written. */
export type ImportKind =
  | 'import' // Python `import a.b`, JS/TS `import … from 'x'` or `import 'x'`, Go import specs
  | 'from' // Python `from a import b`
  | 'export-from' // JS/TS `export … from 'x'`
  | 'require' // JS/TS `require('x')`, TS `import x = require('x')`
  | 'dynamic' // JS/TS `import('x')` with a literal
  | 'use' // Rust `use a::b`
  | 'mod' // Rust `mod x;` (a module in another file)
  | 'extern-crate'; // Rust `extern crate x;`

/** One import as the text writes it (resolution to files is the caller's). */
export interface ImportRef {
  kind: ImportKind;
  /**
   * What it names: a Python dotted module (`''` for `from . import x`), a JS/TS specifier, a Go import
   * path, a Rust path (`crate::a::b`, one per leaf of a use tree), a Rust module or crate name.
   */
  source: string;
  /** Python relative imports: the number of leading dots (0 when absolute, and in other languages). */
  level: number;
  /** Names taken from it as written in the source module (`default` for a JS default import, `*` for a glob); empty when none are named. */
  names: readonly string[];
  line: number;
}

/** A name used in a text (not where it is defined), for ranking definitions by references. */
export interface IdentifierUse {
  name: string;
  line: number;
}

/** Everything the module reads from one text, from a single parse. */
export interface SourceAnalysis {
  language: LanguageId;
  /** The parser gave up within its time budget: problems holds one `timeout` problem, the other parts are empty. */
  timedOut: boolean;
  problems: readonly SyntaxProblem[];
  definitions: readonly Definition[];
  imports: readonly ImportRef[];
  identifiers: readonly IdentifierUse[];
}
