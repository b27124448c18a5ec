// The tree-sitter runtime: initialised once, on first use (a command that never parses never loads it),
// each grammar loaded from its npm package the first time a text of its language is parsed.
import { createRequire } from 'node:module';
import type { Language, Node, Parser, Query, QueryCapture, QueryMatch } from 'web-tree-sitter';
import { HammerError } from '../errors.js';
import { GRAMMAR_FILES, type LanguageId } from './languages.js';

/** A parsed text's root node and its language's queries; valid only inside withTree's callback. */
export interface ParsedText {
  root: Node;
  text: string;
  /** The matches of a query (compiled once per language) over the whole tree, within the time budget. */
  matches(source: string): QueryMatch[];
  /** The captures of a query over the whole tree, within the time budget. */
  captures(source: string): QueryCapture[];
}

/** How long one call may spend parsing and querying a text before it gives up (default 2,000 ms). */
export interface SyntaxOptions {
  timeoutMs?: number;
}

/** The default time budget of one call: far above a 5,000-line file's parse, far below a stalled loop. */
export const DEFAULT_TIMEOUT_MS = 2_000;

/** Thrown inside withTree when the budget is spent; withTree turns it into the caller's fallback. */
class OutOfTime extends Error {}

interface Grammar {
  language: Language;
  parser: Parser;
  queries: Map<string, Query>;
  newQuery(source: string): Query;
}

type TreeSitterModule = typeof import('web-tree-sitter');

// web-tree-sitter keeps its WebAssembly instance in module state, so the runtime is process-wide by nature;
// these promises only make sure it and each grammar are loaded once.
let runtime: Promise<TreeSitterModule> | null = null;
const grammars = new Map<LanguageId, Promise<Grammar>>();

function loadRuntime(): Promise<TreeSitterModule> {
  runtime ??= (async () => {
    const ts = await import('web-tree-sitter');
    await ts.Parser.init();
    return ts;
  })().catch((cause: unknown) => {
    runtime = null;
    throw new HammerError('INTERNAL', 'the tree-sitter runtime (web-tree-sitter) could not be initialised', {
      hint: 'reinstall hammer-box: its web-tree-sitter dependency is missing or damaged',
      cause,
    });
  });
  return runtime;
}

function loadGrammar(id: LanguageId): Promise<Grammar> {
  let pending = grammars.get(id);
  if (pending === undefined) {
    pending = (async () => {
      const ts = await loadRuntime();
      const { pkg, file } = GRAMMAR_FILES[id];
      let language: Language;
      try {
        const wasm = createRequire(import.meta.url).resolve(`${pkg}/${file}`);
        language = await ts.Language.load(wasm);
      } catch (cause) {
        grammars.delete(id);
        throw new HammerError('INTERNAL', `the ${id} grammar (${pkg}/${file}) could not be loaded`, {
          hint: `reinstall hammer-box: its ${pkg} dependency is missing or damaged`,
          cause,
        });
      }
      const parser = new ts.Parser();
      parser.setLanguage(language);
      return { language, parser, queries: new Map(), newQuery: (source) => new ts.Query(language, source) };
    })();
    grammars.set(id, pending);
  }
  return pending;
}

/** Load the runtime and the given grammars now (for measuring, or to pay the cost before it is on a path someone waits on). */
export async function preloadGrammars(languages: readonly LanguageId[]): Promise<void> {
  await Promise.all(languages.map(loadGrammar));
}

/**
 * Parse text as the language and run read over the tree, then free the tree. When parsing or a query
 * takes longer than the budget (pathological or hostile text), the work stops and timedOut's value is returned.
 */
export async function withTree<T>(
  id: LanguageId,
  text: string,
  options: SyntaxOptions,
  read: (parsed: ParsedText) => T,
  timedOut: () => T,
): Promise<T> {
  const grammar = await loadGrammar(id);
  const deadline = performance.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const late = (): boolean => performance.now() > deadline;
  const tree = grammar.parser.parse(text, null, { progressCallback: late });
  if (tree === null) {
    grammar.parser.reset();
    return timedOut();
  }
  const compiled = (source: string): Query => {
    let q = grammar.queries.get(source);
    if (q === undefined) {
      q = grammar.newQuery(source);
      grammar.queries.set(source, q);
    }
    return q;
  };
  const checked = <R>(result: R): R => {
    if (late()) throw new OutOfTime();
    return result;
  };
  try {
    return read({
      root: tree.rootNode,
      text,
      matches: (source) => checked(compiled(source).matches(tree.rootNode, { progressCallback: late })),
      captures: (source) => checked(compiled(source).captures(tree.rootNode, { progressCallback: late })),
    });
  } catch (err) {
    if (err instanceof OutOfTime) return timedOut();
    throw err;
  } finally {
    tree.delete();
  }
}
