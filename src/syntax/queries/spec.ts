// What the syntax module needs to know about one language: its queries and a few node types.

/** One language's tree-sitter queries (.scm source) and node types. */
export interface LanguageSpec {
  /**
   * Definitions: each pattern captures the definition as `@definition.<kind>` and its name as `@name`
   * (Go methods also capture `@receiver`). When patterns overlap on one node, the earlier pattern wins.
   */
  definitions: string;
  /** Parameter lists (`@params`) and the simple names they declare (`@param`), to find a name declared twice. */
  parameters: string;
  /** Node types that are names (counted as identifiers where they are not a definition's name). */
  identifierTypes: readonly string[];
  /** Parent node types that wrap a single definition (its range and signature start there). */
  wrappers: readonly string[];
  /** Sibling node types in front of a definition that belong to it (decorators, attributes). */
  leading: readonly string[];
  /** Joins a container's name and a member's: `.` or `::`. */
  separator: string;
}

/** A name a constant is written with: UPPER_CASE, maybe with leading underscores. */
export const CONSTANT_NAME = '^_*[A-Z][A-Z0-9_]*$';
