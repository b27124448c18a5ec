// The syntax module's API: what a source text holds, read from one parse.
import { readDefinitions } from './definitions.js';
import { readIdentifiers } from './identifiers.js';
import { readImports } from './imports.js';
import type { LanguageId } from './languages.js';
import { readProblems, timeoutProblem } from './problems.js';
import { SPECS } from './queries/index.js';
import { withTree, type SyntaxOptions } from './runtime.js';
import type { Definition, IdentifierUse, ImportRef, SourceAnalysis, SyntaxProblem } from './types.js';

/** Which parts analyzeSource reads (all when omitted). */
export interface AnalysisParts {
  problems?: boolean;
  definitions?: boolean;
  imports?: boolean;
  identifiers?: boolean;
}

const ALL: AnalysisParts = { problems: true, definitions: true, imports: true, identifiers: true };

/** Parse text once and read the parts asked for (the others come back empty). */
export async function analyzeSource(
  language: LanguageId,
  text: string,
  parts: AnalysisParts = ALL,
  options: SyntaxOptions = {},
): Promise<SourceAnalysis> {
  const spec = SPECS[language];
  const empty = { language, definitions: [], imports: [], identifiers: [] };
  return withTree<SourceAnalysis>(
    language,
    text,
    options,
    (parsed) => {
      const defs =
        parts.definitions === true || parts.identifiers === true
          ? readDefinitions(parsed, spec)
          : { definitions: [], nameIndices: new Set<number>() };
      return {
        ...empty,
        timedOut: false,
        problems: parts.problems === true ? readProblems(parsed, spec) : [],
        definitions: parts.definitions === true ? defs.definitions : [],
        imports: parts.imports === true ? readImports(parsed, language) : [],
        identifiers: parts.identifiers === true ? readIdentifiers(parsed, spec, defs.nameIndices) : [],
      };
    },
    () => ({ ...empty, timedOut: true, problems: [timeoutProblem()] }),
  );
}

/** The syntax errors, missing tokens and duplicated parameter names of a text, in source order (at most MAX_PROBLEMS). */
export async function parseProblems(
  language: LanguageId,
  text: string,
  options: SyntaxOptions = {},
): Promise<SyntaxProblem[]> {
  return withTree(
    language,
    text,
    options,
    (parsed) => readProblems(parsed, SPECS[language]),
    () => [timeoutProblem()],
  );
}

/** The definitions of a text (functions, classes, methods, types, constants), in source order; [] past the time budget. */
export async function findDefinitions(
  language: LanguageId,
  text: string,
  options: SyntaxOptions = {},
): Promise<Definition[]> {
  return withTree<Definition[]>(
    language,
    text,
    options,
    (parsed) => readDefinitions(parsed, SPECS[language]).definitions,
    none,
  );
}

/** The imports of a text as written, in source order; [] past the time budget. */
export async function findImports(
  language: LanguageId,
  text: string,
  options: SyntaxOptions = {},
): Promise<ImportRef[]> {
  return withTree<ImportRef[]>(language, text, options, (parsed) => readImports(parsed, language), none);
}

/** The names a text uses (not where they are defined), in source order; [] past the time budget. */
export async function findIdentifiers(
  language: LanguageId,
  text: string,
  options: SyntaxOptions = {},
): Promise<IdentifierUse[]> {
  const spec = SPECS[language];
  return withTree<IdentifierUse[]>(
    language,
    text,
    options,
    (parsed) => readIdentifiers(parsed, spec, readDefinitions(parsed, spec).nameIndices),
    none,
  );
}

/** The definitions that contain a 1-based line, outermost first (pure: works on findDefinitions' result). */
export function enclosingDefinitions(definitions: readonly Definition[], line: number): Definition[] {
  return definitions
    .filter((d) => d.startLine <= line && line <= d.endLine)
    .sort((a, b) => a.depth - b.depth || a.startLine - b.startLine);
}

function none<T>(): T[] {
  return [];
}
