// JSON as models write it: raw newlines and tabs inside strings, backslashes that are no escape
// (`\.` in a regex), text after the value, and a value encoded twice (a JSON string holding JSON).

/** The JSON value at the start of `text` (after blanks), repaired where that is safe; undefined when there is none. */
export function parseLenientJson(text: string): unknown {
  const src = text.trim();
  if (src === '') return undefined;
  let value = tryParse(src);
  if (value === undefined) {
    const end = valueEnd(src);
    const repaired = repairStrings(end === null ? src : src.slice(0, end));
    value = tryParse(repaired);
  }
  // a string that holds an object or an array: arguments encoded twice
  if (typeof value === 'string' && /^\s*[{[]/.test(value)) {
    const inner = parseLenientJson(value);
    if (typeof inner === 'object' && inner !== null) return inner;
  }
  return value;
}

/** The end (exclusive) of the object or array that starts `text`, counting brackets outside strings; null when it never closes. */
export function valueEnd(text: string): number | null {
  const open = text[0];
  if (open !== '{' && open !== '[') return null;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return null;
}

function tryParse(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
}

const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u']);

// Inside strings: control characters escaped, a backslash before a character JSON does not escape doubled.
function repairStrings(s: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (!inString) {
      if (ch === '"') inString = true;
      out += ch;
      continue;
    }
    if (ch === '\\') {
      const next = s[i + 1];
      const unicode = next === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6));
      if (next !== undefined && ESCAPES.has(next) && (next !== 'u' || unicode)) {
        out += ch + next;
        i++;
      } else out += '\\\\';
      continue;
    }
    if (ch === '"') inString = false;
    const code = ch.charCodeAt(0);
    out += code < 0x20 ? (CONTROL_ESCAPES[ch] ?? `\\u${code.toString(16).padStart(4, '0')}`) : ch;
  }
  return out;
}

const CONTROL_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
