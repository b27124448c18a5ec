// Code that reads like a real project's, for the cases shaped after real fixes: methods that call each
// other, helpers with branches, tables of messages. Deterministic (no randomness), every line of it
// different from the lines a case's fix names.

const WORDS = [
  'token', 'scope', 'node', 'entry', 'field', 'value', 'option', 'header', 'column', 'record', 'buffer',
  'symbol', 'window', 'target', 'source', 'segment', 'label', 'frame', 'module', 'member', 'index', 'cursor',
]; // prettier-ignore
const VERBS = ['check', 'collect', 'resolve', 'render', 'merge', 'split', 'visit', 'emit', 'track', 'normalize'];

/** A name made of a verb and a word, different for each i (snake_case). */
export function snakeName(i: number): string {
  return `${VERBS[i % VERBS.length]}_${WORDS[Math.floor(i / VERBS.length) % WORDS.length]}_${i}`;
}

/** The same name in camelCase. */
export function camelName(i: number): string {
  return snakeName(i).replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The same name in PascalCase. */
export function pascalName(i: number): string {
  const c = camelName(i);
  return c[0]!.toUpperCase() + c.slice(1);
}

/** `n` Python methods of a class (indented), each calling the next. */
export function pyMethods(n: number, from = 0): string {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return `    def _${snakeName(i)}(self, node, depth=0):
        """Look at one ${WORDS[i % WORDS.length]} of the tree (${i})."""
        if node is None or depth > ${8 + (i % 5)}:
            return None
        seen = self._seen.setdefault("${WORDS[i % WORDS.length]}", set())
        if id(node) in seen:
            return None
        seen.add(id(node))
        for child in getattr(node, "children", ()):
            self._${snakeName(i + 1)}(child, depth + 1)
        return self.stats.get("${snakeName(i)}", ${i})
`;
  }).join('\n');
}

/** `n` Python module-level helpers. */
export function pyHelpers(n: number, from = 0): string {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return `def ${snakeName(i)}(items, limit=${10 + (i % 7)}):
    """Return the ${WORDS[i % WORDS.length]}s of items, at most limit of them (${i})."""
    out = []
    for item in items:
        if len(out) >= limit:
            break
        if isinstance(item, str) and item.startswith("${WORDS[(i + 3) % WORDS.length]}"):
            out.append(item[${1 + (i % 4)}:])
        elif item:
            out.append(item)
    return out

`;
  }).join('\n');
}

/** `n` JavaScript class methods (indented), each with a JSDoc comment and a few branches. */
export function jsMethods(n: number, from = 0): string {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const name = camelName(i);
    return `  /**
   * ${name[0]!.toUpperCase()}${name.slice(1)}: look at the ${WORDS[i % WORDS.length]}s of this command (${i}).
   *
   * @param {string} [name]
   * @return {Command}
   */
  ${name}(name) {
    if (name === undefined) {
      return this._${WORDS[i % WORDS.length]}s;
    }
    const found = this.commands.find((cmd) => cmd._name === name || cmd._aliases.includes(name));
    if (found) {
      found._${WORDS[(i + 1) % WORDS.length]} = ${i % 3 === 0 ? 'true' : 'false'};
      return found;
    }
    this._${WORDS[i % WORDS.length]}s.push(name);
    return this;
  }
`;
  }).join('\n');
}

/** `n` Go functions on a receiver (or plain functions when receiver is ''). */
export function goFuncs(n: number, receiver: string, from = 0): string {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const name = camelName(i);
    const recv = receiver === '' ? '' : `(${receiver}) `;
    return `// ${name} handles one ${WORDS[i % WORDS.length]} (${i}).
func ${recv}${name}(input string, pos int) (int, error) {
	if pos >= len(input) {
		return pos, nil
	}
	for pos < len(input) && input[pos] != '${'abcdefgh'[i % 8]}' {
		if input[pos] == '\\n' {
			return pos, fmt.Errorf("${WORDS[i % WORDS.length]} %d: unexpected newline", pos)
		}
		pos++
	}
	return pos + ${1 + (i % 3)}, nil
}
`;
  }).join('\n');
}

/** `n` Rust functions, each matching on a few cases. */
export function rustFns(n: number, from = 0): string {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return `/// Handles one ${WORDS[i % WORDS.length]} (${i}).
pub(crate) fn ${snakeName(i)}(input: &str, pos: usize) -> Result<usize, String> {
    let bytes = input.as_bytes();
    let mut at = pos;
    while at < bytes.len() {
        match bytes[at] {
            b'\\n' => return Err(format!("${WORDS[i % WORDS.length]} {}: unexpected newline", at)),
            b'${'abcdefgh'[i % 8]}' => break,
            _ => at += 1,
        }
    }
    Ok(at + ${1 + (i % 3)})
}
`;
  }).join('\n');
}

/** `n` TypeScript functions of a module, exported. */
export function tsFuncs(n: number, from = 0): string {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const name = camelName(i);
    return `/**
 * ${name}: the ${WORDS[i % WORDS.length]}s of a list (${i}).
 */
export function ${name}<T>(items: readonly T[], limit = ${10 + (i % 7)}): T[] {
  const out: T[] = [];
  for (const item of items) {
    if (out.length >= limit) break;
    if (item !== null && item !== undefined) out.push(item);
  }
  return out;
}
`;
  }).join('\n');
}
