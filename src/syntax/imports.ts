// Imports as the text writes them, per language (resolving them to files is the caller's work).
import type { Node } from 'web-tree-sitter';
import type { LanguageId } from './languages.js';
import type { ParsedText } from './runtime.js';
import type { ImportKind, ImportRef } from './types.js';

const PYTHON_QUERY = `
(import_statement) @import
(import_from_statement) @from
`;

const JS_QUERY = `
(import_statement source: (string) @source) @import
(export_statement source: (string) @source) @export-from
(call_expression
  function: (identifier) @fn
  arguments: (arguments . [(string) (template_string)] @source .)
  (#eq? @fn "require")) @require
(call_expression function: (import) arguments: (arguments . [(string) (template_string)] @source)) @dynamic
`;

/** The capture names of JS_QUERY and TS_QUERY that name a statement. */
const JS_KINDS: readonly ImportKind[] = ['import', 'export-from', 'require', 'dynamic'];

const TS_QUERY = `${JS_QUERY}
(import_require_clause source: (string) @source) @require
`;

const GO_QUERY = `(import_spec path: (_) @source) @import`;

const RUST_QUERY = `
(use_declaration argument: (_) @argument) @use
(mod_item name: (identifier) @name !body) @mod
(extern_crate_declaration name: (identifier) @name) @extern-crate
`;

/** The imports of a parsed text, in source order. */
export function readImports(parsed: ParsedText, language: LanguageId): ImportRef[] {
  switch (language) {
    case 'python':
      return pythonImports(parsed);
    case 'javascript':
      return jsImports(parsed, JS_QUERY);
    case 'typescript':
    case 'tsx':
      return jsImports(parsed, TS_QUERY);
    case 'go':
      return parsed
        .captures(GO_QUERY)
        .filter((c) => c.name === 'source')
        .map((c) => ref('import', unquote(c.node.text), [], c.node));
    case 'rust':
      return rustImports(parsed);
  }
}

function ref(kind: ImportKind, source: string, names: readonly string[], at: Node, level = 0): ImportRef {
  return { kind, source, level, names, line: at.startPosition.row + 1 };
}

function unquote(text: string): string {
  return text.length >= 2 ? text.slice(1, -1) : text;
}

function dotted(node: Node): string {
  return node.text.replace(/\s+/g, '');
}

/** The module a Python import names: `a.b` of `a.b as c`. */
function pythonName(node: Node): string {
  return dotted(node.type === 'aliased_import' ? (node.childForFieldName('name') ?? node) : node);
}

function pythonImports(parsed: ParsedText): ImportRef[] {
  const out: ImportRef[] = [];
  for (const { name, node } of parsed.captures(PYTHON_QUERY)) {
    const names = node.childrenForFieldName('name').filter((n) => n !== null);
    if (name === 'import') {
      for (const n of names) out.push(ref('import', pythonName(n), [], node));
      continue;
    }
    const moduleName = node.childForFieldName('module_name');
    if (moduleName === null) continue;
    let level = 0;
    let source = dotted(moduleName);
    if (moduleName.type === 'relative_import') {
      level = moduleName.namedChildren.find((c) => c?.type === 'import_prefix')?.text.length ?? 0;
      const inner = moduleName.namedChildren.find((c) => c?.type === 'dotted_name');
      source = inner ? dotted(inner) : '';
    }
    const wildcard = node.namedChildren.some((c) => c?.type === 'wildcard_import');
    out.push(ref('from', source, wildcard ? ['*'] : names.map(pythonName), node, level));
  }
  return out;
}

/** A string or substitution-free template literal's value, or null when it is computed. */
function literal(node: Node): string | null {
  if (node.type === 'template_string' && node.namedChildren.some((c) => c?.type === 'template_substitution')) {
    return null;
  }
  return unquote(node.text);
}

function jsImports(parsed: ParsedText, query: string): ImportRef[] {
  const out: ImportRef[] = [];
  for (const match of parsed.matches(query)) {
    const statement = match.captures.find((c) => c.name !== 'source' && c.name !== 'fn');
    const source = match.captures.find((c) => c.name === 'source');
    if (statement === undefined || source === undefined) continue;
    const value = literal(source.node);
    if (value === null) continue;
    const kind = JS_KINDS.find((k) => k === statement.name);
    if (kind === undefined) continue;
    out.push(ref(kind, value, jsNames(kind, statement.node), statement.node));
  }
  return out.sort((a, b) => a.line - b.line);
}

/** The names a JS/TS import takes, as the source module calls them. */
function jsNames(kind: ImportKind, node: Node): string[] {
  const names: string[] = [];
  if (kind === 'import') {
    const clause = node.namedChildren.find((c) => c?.type === 'import_clause');
    for (const part of clause?.namedChildren ?? []) {
      if (part === null) continue;
      if (part.type === 'identifier') names.push('default');
      else if (part.type === 'namespace_import') names.push('*');
      else if (part.type === 'named_imports') {
        for (const spec of part.namedChildren) {
          const name = spec?.type === 'import_specifier' ? spec.childForFieldName('name') : null;
          if (name) names.push(unquoteName(name.text));
        }
      }
    }
  } else if (kind === 'export-from') {
    const clause = node.namedChildren.find((c) => c?.type === 'export_clause');
    if (clause === undefined) return ['*'];
    for (const spec of clause?.namedChildren ?? []) {
      const name = spec?.type === 'export_specifier' ? spec.childForFieldName('name') : null;
      if (name) names.push(unquoteName(name.text));
    }
  } else if (kind === 'require') {
    // const { a, b: c } = require('x')
    const declarator = node.parent?.type === 'variable_declarator' ? node.parent : null;
    const pattern = declarator?.childForFieldName('name');
    if (pattern?.type === 'object_pattern') {
      for (const p of pattern.namedChildren) {
        if (p?.type === 'shorthand_property_identifier_pattern') names.push(p.text);
        else if (p?.type === 'pair_pattern') names.push(p.childForFieldName('key')?.text ?? '');
      }
    }
  }
  return names.filter((n) => n !== '');
}

/** `import { "a-b" as c }` names a string. */
function unquoteName(text: string): string {
  return /^["']/.test(text) ? unquote(text) : text;
}

function rustImports(parsed: ParsedText): ImportRef[] {
  const out: ImportRef[] = [];
  for (const match of parsed.matches(RUST_QUERY)) {
    const [statement] = match.captures.filter((c) => c.name === 'use' || c.name === 'mod' || c.name === 'extern-crate');
    if (statement === undefined) continue;
    if (statement.name === 'use') {
      const argument = match.captures.find((c) => c.name === 'argument')?.node;
      if (argument === undefined) continue;
      for (const leaf of useLeaves(argument, '')) {
        out.push(ref('use', leaf.path, leaf.glob ? ['*'] : [], statement.node));
      }
      continue;
    }
    const name = match.captures.find((c) => c.name === 'name')?.node.text;
    if (name === undefined) continue;
    if (statement.name === 'mod')
      out.push(ref('mod', [...enclosingModules(statement.node), name].join('::'), [], statement.node));
    else out.push(ref('extern-crate', name, [], statement.node));
  }
  return out;
}

/** Names of the inline `mod x { … }` blocks around a node, outermost first. */
function enclosingModules(node: Node): string[] {
  const names: string[] = [];
  for (let p = node.parent; p !== null; p = p.parent) {
    const name = p.type === 'mod_item' ? p.childForFieldName('name')?.text : undefined;
    if (name !== undefined) names.unshift(name);
  }
  return names;
}

function joinPath(prefix: string, part: string): string {
  if (part === 'self' && prefix !== '') return prefix;
  return prefix === '' ? part : `${prefix}::${part}`;
}

/** Use trees nested deeper than this are not followed (no real code comes near; a hostile text could). */
const MAX_USE_DEPTH = 32;

/** Every path a use tree names (`a::{b, c::*}` → `a::b`, `a::c` glob). */
function useLeaves(node: Node, prefix: string, depth = 0): { path: string; glob: boolean }[] {
  if (depth > MAX_USE_DEPTH) return [];
  switch (node.type) {
    case 'use_as_clause': {
      const path = node.childForFieldName('path');
      return path === null ? [] : useLeaves(path, prefix, depth + 1);
    }
    case 'use_wildcard': {
      const path = node.namedChildren.find((c) => c !== null);
      return [{ path: path ? joinPath(prefix, dotted(path)) : prefix, glob: true }];
    }
    case 'scoped_use_list': {
      const path = node.childForFieldName('path');
      const list = node.childForFieldName('list');
      const inner = path === null ? prefix : joinPath(prefix, dotted(path));
      return list === null ? [] : useLeaves(list, inner, depth + 1);
    }
    case 'use_list':
      return node.namedChildren.flatMap((c) =>
        c === null || c.type.endsWith('comment') ? [] : useLeaves(c, prefix, depth + 1),
      );
    default:
      return [{ path: joinPath(prefix, dotted(node)), glob: false }];
  }
}
