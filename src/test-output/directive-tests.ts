// Which failing tests a directive points at: by their names (`test_parse_date`, `TestAbs`,
// `tests/test_x.py::test_y`, a Jest test's full name), or, more loosely, by the test files it names.
import type { FailingTest } from './compare.js';

/** The tests of `failing` the directive names, by name and by file (a test named by name is not listed by file). */
export interface DirectiveTests {
  byName: FailingTest[];
  byFile: FailingTest[];
}

/** The shortest test name matched on its own (shorter ones are ordinary words). */
const MIN_NAME = 5;

/** Read which of `failing` the directive text names. Pure; case-sensitive, as test names are. */
export function directiveTests(directive: string, failing: readonly FailingTest[]): DirectiveTests {
  const byName: FailingTest[] = [];
  const byFile: FailingTest[] = [];
  for (const t of failing) {
    if (namesTest(directive, t)) byName.push(t);
    else if (namesFile(directive, t)) byFile.push(t);
  }
  return { byName, byFile };
}

/** The directive holds the test's id, its function or test name, or (for a name-described test) its title. */
function namesTest(directive: string, t: FailingTest): boolean {
  if (t.scope !== 'test') return false;
  if (t.id.length >= MIN_NAME && containsWord(directive, t.id)) return true;
  const short = shortName(t);
  if (short !== null && containsWord(directive, short)) return true;
  // Jest, Vitest, Mocha, node and TAP name a test by its description: its last part, quoted or not
  if (['jest', 'vitest', 'mocha', 'node', 'tap'].includes(t.runner)) {
    const title =
      t.name
        .split(/ [›>] /)
        .at(-1)
        ?.trim() ?? '';
    return title.length >= 12 && directive.includes(title);
  }
  return false;
}

/** A test function's own name, when it looks like one: `test_total`, `TestAbs`, `parses_spaces` (params and parents dropped). */
function shortName(t: FailingTest): string | null {
  if (!['pytest', 'unittest', 'go', 'cargo'].includes(t.runner)) return null;
  const last =
    t.id
      .replace(/\[.*\]$/, '')
      .split(/::|\.|\//)
      .filter((p) => p !== '')
      .at(t.runner === 'go' ? 0 : -1) ?? '';
  if (last.length < MIN_NAME) return null;
  return /^(test|Test)|_/.test(last) ? last : null;
}

/** The directive names the test's file: its path, or its file name (`test_calc.py`, `cart.test.ts`). */
function namesFile(directive: string, t: FailingTest): boolean {
  const file = t.file ?? (t.runner === 'pytest' ? (t.id.split('::')[0] ?? null) : null);
  if (file === null) return false;
  const base = file.split('/').at(-1) ?? file;
  if (!base.includes('.') || base.length < MIN_NAME) return false;
  return containsWord(directive, file) || containsWord(directive, base);
}

/** `needle` occurs in `text` with no word character joining it to more on either side (a longer path before it is fine). */
function containsWord(text: string, needle: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(needle, from);
    if (at < 0) return false;
    const before = text[at - 1] ?? ' ';
    const after = text[at + needle.length] ?? ' ';
    if (!/\w/.test(before) && !/\w/.test(after)) return true;
    from = at + 1;
  }
}
