// Names a parsed text uses, for ranking definitions by how often they are referenced.
import type { LanguageSpec } from './queries/index.js';
import type { ParsedText } from './runtime.js';
import type { IdentifierUse } from './types.js';

/** Every name node of the text that is not a definition's own name, in source order. */
export function readIdentifiers(
  parsed: ParsedText,
  spec: LanguageSpec,
  definitionNames: ReadonlySet<number>,
): IdentifierUse[] {
  const out: IdentifierUse[] = [];
  for (const { node } of parsed.captures(`[${spec.identifierTypes.map((t) => `(${t})`).join(' ')}] @id`)) {
    if (definitionNames.has(node.startIndex)) continue;
    const name = node.text;
    if (name === '_') continue;
    out.push({ name, line: node.startPosition.row + 1 });
  }
  return out;
}
