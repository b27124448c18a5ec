// Why a parsed text is not valid code: its ERROR and MISSING nodes, and parameter names declared twice.
import type { Node } from 'web-tree-sitter';
import type { LanguageSpec } from './queries/index.js';
import type { ParsedText } from './runtime.js';
import { lineAt, oneLine } from './text-lines.js';
import type { SyntaxProblem } from './types.js';

/** At most this many problems are reported for one text (the first ones, in source order). */
export const MAX_PROBLEMS = 50;
const EXCERPT_MAX = 160;
const NEAR_MAX = 40;

/** The syntax problems of a parsed text, in source order. */
export function readProblems(parsed: ParsedText, spec: LanguageSpec): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  if (parsed.root.hasError) collectErrors(parsed.root, parsed.text, problems);
  problems.push(...duplicateParameters(parsed, spec));
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return problems.slice(0, MAX_PROBLEMS);
}

function collectErrors(root: Node, text: string, out: SyntaxProblem[]): void {
  // depth-first in source order, with an explicit stack: a hostile text can nest deeper than the call stack
  const stack: Node[] = [root];
  while (stack.length > 0 && out.length < MAX_PROBLEMS) {
    const node = stack.pop()!;
    if (node.isMissing) {
      out.push(problem('missing', node.isNamed ? `missing ${node.type}` : `missing "${node.type}"`, node, text));
    } else if (node.isError) {
      // an ERROR node holds what the parser skipped; its first line says where it went wrong
      const near = oneLine(text.slice(node.startIndex, node.endIndex).split('\n')[0] ?? '', NEAR_MAX);
      out.push(problem('error', near === '' ? 'syntax error' : `syntax error near "${near}"`, node, text));
    } else {
      const children = node.children.filter((c) => c !== null && (c.hasError || c.isMissing));
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
}

/** The single problem of a text the parser gave up on within its time budget. */
export function timeoutProblem(): SyntaxProblem {
  return { kind: 'timeout', message: 'not parsed: the time limit was reached', line: 1, column: 1, excerpt: '' };
}

/** A name declared twice in one parameter list (a SyntaxError in Python, an error in JS/TS strict code, Go and Rust). */
function duplicateParameters(parsed: ParsedText, spec: LanguageSpec): SyntaxProblem[] {
  const seen = new Map<number, Set<string>>();
  const out: SyntaxProblem[] = [];
  for (const match of parsed.matches(spec.parameters)) {
    const list = match.captures.find((c) => c.name === 'params')?.node;
    const param = match.captures.find((c) => c.name === 'param')?.node;
    if (list === undefined || param === undefined || param.text === '_') continue;
    let names = seen.get(list.id);
    if (names === undefined) seen.set(list.id, (names = new Set()));
    if (names.has(param.text))
      out.push(problem('duplicate-parameter', `duplicate parameter "${param.text}"`, param, parsed.text));
    names.add(param.text);
  }
  return out;
}

function problem(kind: SyntaxProblem['kind'], message: string, node: Node, text: string): SyntaxProblem {
  return {
    kind,
    message,
    line: node.startPosition.row + 1,
    column: node.startPosition.column + 1,
    excerpt: oneLineExcerpt(lineAt(text, node.startIndex)),
  };
}

function oneLineExcerpt(line: string): string {
  const trimmed = line.trimEnd();
  return trimmed.length > EXCERPT_MAX ? `${trimmed.slice(0, EXCERPT_MAX - 1)}…` : trimmed;
}
