// Definitions of a parsed text, from each language's definitions query: kind, name, qualified name, lines, signature.
import type { Node } from 'web-tree-sitter';
import type { LanguageSpec } from './queries/index.js';
import type { ParsedText } from './runtime.js';
import { lineSpan, oneLine } from './text-lines.js';
import type { Definition, DefinitionKind } from './types.js';

const KINDS: ReadonlySet<string> = new Set<DefinitionKind>([
  'function',
  'method',
  'class',
  'interface',
  'type',
  'struct',
  'enum',
  'trait',
  'impl',
  'module',
  'const',
  'variable',
  'macro',
]);
function isKind(name: string): name is DefinitionKind {
  return KINDS.has(name);
}

/** Definitions whose functions are methods. */
const MEMBER_CONTAINERS: ReadonlySet<DefinitionKind> = new Set(['class', 'interface', 'impl', 'trait']);
const SIGNATURE_MAX = 200;

interface Found {
  kind: DefinitionKind;
  node: Node;
  name: string;
  /** Where the name is, so identifier uses can leave definitions out. */
  nameIndex: number;
  outer: Node;
  /** The first node of it: a decorator or attribute in front of it, or the outer node. */
  first: Node;
  end: number;
  receiver: string | null;
}

/** Definitions with the start index of each name (internal: identifiers() leaves those names out). */
export interface DefinitionsResult {
  definitions: Definition[];
  nameIndices: Set<number>;
}

/** Every definition in a parsed text, in source order, with its containers. */
export function readDefinitions(parsed: ParsedText, spec: LanguageSpec): DefinitionsResult {
  const found = new Map<string, Found & { pattern: number }>();
  for (const match of parsed.matches(spec.definitions)) {
    let def: Node | null = null;
    let kind: DefinitionKind | null = null;
    let nameNode: Node | null = null;
    let receiver: Node | null = null;
    for (const c of match.captures) {
      if (c.name.startsWith('definition.')) {
        const k = c.name.slice('definition.'.length);
        if (isKind(k)) {
          def = c.node;
          kind = k;
        }
      } else if (c.name === 'name') nameNode = c.node;
      else if (c.name === 'receiver') receiver = c.node;
    }
    if (def === null || kind === null || nameNode === null) continue;
    const key = `${def.id}:${nameNode.startIndex}`;
    const seen = found.get(key);
    if (seen !== undefined && seen.pattern <= match.patternIndex) continue;
    const outer = outerNode(def, spec);
    found.set(key, {
      pattern: match.patternIndex,
      kind,
      node: def,
      name: kind === 'impl' ? baseTypeName(nameNode) : nameNode.text,
      nameIndex: nameNode.startIndex,
      outer,
      first: leadingNode(outer, spec),
      end: outer.endIndex,
      receiver: receiver === null ? null : receiverType(receiver),
    });
  }
  const sorted = [...found.values()].sort((a, b) => a.first.startIndex - b.first.startIndex || b.end - a.end);
  const stack: { found: Found; def: Definition }[] = [];
  const definitions: Definition[] = [];
  for (const f of sorted) {
    while (stack.length > 0 && stack[stack.length - 1]!.found.end <= f.first.startIndex) stack.pop();
    const parent = stack[stack.length - 1];
    let kind = f.kind;
    if (kind === 'function' && parent !== undefined && MEMBER_CONTAINERS.has(parent.def.kind)) kind = 'method';
    const prefix = f.receiver ?? parent?.def.qualifiedName ?? null;
    const separator = f.receiver !== null ? '.' : spec.separator;
    const span = lineSpan(f.outer);
    const def: Definition = {
      kind,
      name: f.name,
      qualifiedName: prefix === null ? f.name : `${prefix}${separator}${f.name}`,
      startLine: f.first.startPosition.row + 1,
      endLine: span.endLine,
      depth: stack.length,
      signature: signature(parsed.text, f),
    };
    definitions.push(def);
    stack.push({ found: f, def });
  }
  return { definitions, nameIndices: new Set(sorted.map((f) => f.nameIndex)) };
}

/** The node a definition's range starts from: its wrapper (decorated_definition, export_statement, …) when it is the only thing in it. */
function outerNode(def: Node, spec: LanguageSpec): Node {
  let node = def;
  for (let parent = node.parent; parent !== null && spec.wrappers.includes(parent.type); parent = node.parent) {
    const own = parent.namedChildren.filter(
      (c) => c !== null && !spec.leading.includes(c.type) && c.type !== 'comment',
    );
    // a Go `type ( … )` group keeps each spec apart even when it holds one
    if (own.length !== 1 || parent.children.some((c) => c?.type === '(')) break;
    node = parent;
  }
  return node;
}

/** Where a definition starts once the decorators or attributes in front of it are counted. */
function leadingNode(outer: Node, spec: LanguageSpec): Node {
  let first = outer;
  for (let sib = outer.previousNamedSibling; sib !== null; sib = sib.previousNamedSibling) {
    if (spec.leading.includes(sib.type)) first = sib;
    else if (sib.type !== 'comment') break;
  }
  return first;
}

/** The definition's header: from its first keyword (after decorators) to where its body starts, on one line. */
function signature(text: string, f: Found): string {
  const first = f.outer.children.find((c) => c !== null && c.type !== 'decorator' && c.type !== 'comment');
  const from = first?.startIndex ?? f.outer.startIndex;
  const body = bodyOf(f.node);
  let header: string;
  if (body !== null && body.startIndex > from) header = text.slice(from, body.startIndex);
  else {
    const eol = text.indexOf('\n', from);
    header = text.slice(from, eol === -1 || eol > f.outer.endIndex ? f.outer.endIndex : eol);
  }
  return oneLine(header.replace(/\s*[{:;]?\s*$/, ''), SIGNATURE_MAX);
}

/** The node holding a definition's body, or null when it has none (a constant, an alias). */
function bodyOf(node: Node): Node | null {
  const body = node.childForFieldName('body');
  // a Rust tuple struct's fields are its header: `pub struct Celsius(pub f64)`
  if (body !== null) return body.type === 'ordered_field_declaration_list' ? null : body;
  const value = node.childForFieldName('value') ?? node.childForFieldName('right');
  if (value !== null) return value.childForFieldName('body');
  const type = node.type === 'type_spec' ? node.childForFieldName('type') : null;
  if (type !== null && (type.type === 'struct_type' || type.type === 'interface_type')) {
    return type.children.find((c) => c !== null && (c.type === '{' || c.type === 'field_declaration_list')) ?? null;
  }
  return null;
}

/** The type a Go method's receiver names (`*Stack[T]` → `Stack`). */
function receiverType(receiver: Node): string | null {
  return receiver.descendantsOfType('type_identifier')[0]?.text ?? null;
}

/** A Rust impl's type without generics or path (`fmt::Stack<T>` → `Stack`). */
function baseTypeName(node: Node): string {
  if (node.type === 'generic_type') {
    const inner = node.childForFieldName('type');
    return inner === null ? node.text : baseTypeName(inner);
  }
  if (node.type === 'scoped_type_identifier') return node.childForFieldName('name')?.text ?? node.text;
  return oneLine(node.text, SIGNATURE_MAX);
}
