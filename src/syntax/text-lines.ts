// Small helpers over source text shared by the syntax module's readers.
import type { Node } from 'web-tree-sitter';

/** Collapse whitespace to single spaces and cap the length with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The whole source line a node starts on, without its line break. */
export function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? text.length : end).replace(/\r$/, '');
}

/** A node's 1-based first and last lines (a node ending at column 0 ends on the line before). */
export function lineSpan(node: Node): { startLine: number; endLine: number } {
  const end = node.endPosition;
  const endRow = end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
  return { startLine: node.startPosition.row + 1, endLine: endRow + 1 };
}
