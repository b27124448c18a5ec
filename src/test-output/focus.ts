// Failing tests first: the test command narrowed to the tests the last run named as failing, for
// the runners that can be filtered; null whenever it cannot be done safely (the whole suite runs).
import type { FailingTest } from './compare.js';
import type { TestRunner } from './types.js';

/** A focused test command and what it selects. */
export interface FocusPlan {
  runner: TestRunner;
  /** The test command with the runner's filter added (a shell command, like the test command). */
  command: string;
  /** How many failing tests it selects. */
  tests: number;
}

/** Characters that make a command more than a plain word list (the filter is not added to those). */
const SHELL_SYNTAX = /[;&|<>$`"'\\(){}\n\r#]/;
/** pytest and unittest flags whose value is the next word (not a test selection). */
const VALUE_FLAGS = new Set(['-p', '-k', '-m', '-o', '-c', '-W', '--tb', '--rootdir', '--maxfail', '--durations']);
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** How each runner is invoked (words after any leading VAR=value), and how its filter is added. */
interface RunnerShape {
  runner: TestRunner;
  /** Leading words that name the runner (any one of these). */
  heads: readonly (readonly string[])[];
  /** The filter flags the command must not carry already. */
  owns: readonly string[];
  /** True when positional arguments select tests (then the command may have none: ids are added instead). */
  positionalSelects: boolean;
  filter: (tests: readonly FailingTest[], rest: readonly string[]) => string[] | null;
}

const PY = ['python', 'python3'];
const NPX = (name: string): string[][] => [[name], ['npx', name], ['npx', '--no-install', name]];

const SHAPES: readonly RunnerShape[] = [
  {
    runner: 'pytest',
    heads: [['pytest'], ['py.test'], ...PY.map((p) => [p, '-m', 'pytest'])],
    owns: [],
    positionalSelects: true,
    filter: (tests) => tests.map((t) => t.id),
  },
  {
    runner: 'unittest',
    heads: PY.map((p) => [p, '-m', 'unittest']),
    owns: ['discover', '-k'],
    positionalSelects: true,
    filter: (tests) => tests.map((t) => t.id),
  },
  {
    runner: 'node',
    heads: [['node', '--test']],
    owns: ['--test-name-pattern', '--test-skip-pattern'],
    positionalSelects: false,
    filter: (tests) => tests.map((t) => `--test-name-pattern=${escapeRegex(t.id)}`),
  },
  {
    runner: 'jest',
    heads: NPX('jest'),
    owns: ['-t', '--testNamePattern'],
    positionalSelects: false,
    filter: (tests) => ['-t', anyOf(tests.map((t) => t.id))],
  },
  {
    runner: 'vitest',
    heads: NPX('vitest'),
    owns: ['-t', '--testNamePattern'],
    positionalSelects: false,
    filter: (tests) => ['-t', anyOf(tests.map((t) => t.id))],
  },
  {
    runner: 'mocha',
    heads: NPX('mocha'),
    owns: ['-g', '--grep', '-f', '--fgrep', '--invert'],
    positionalSelects: false,
    filter: (tests) => ['--grep', anyOf(tests.map((t) => t.id))],
  },
  {
    runner: 'go',
    heads: [['go', 'test']],
    owns: ['-run', '--run', '-skip'],
    positionalSelects: false,
    // top-level test names: a failing subtest reruns its parent with all its subtests
    filter: (tests) => ['-run', `^(${[...new Set(tests.map((t) => escapeRegex(t.id.split('/')[0]!)))].join('|')})$`],
  },
  {
    runner: 'cargo',
    heads: [['cargo', 'test']],
    owns: ['--exact', '--skip'],
    positionalSelects: false,
    filter: (tests, rest) => [...(rest.includes('--') ? [] : ['--']), ...tests.map((t) => t.id)],
  },
];

/**
 * The test command narrowed to `failing` (the last run's failing tests), or null when the whole
 * suite must run: no failing test named, tests of several runners or of a scope the runner cannot
 * select (a file that did not load, a package that did not build), a command hammer-box cannot read
 * as a plain invocation of that runner (`npm test`, `make test`, shell syntax), or one that already
 * filters. Ids come from test output (untrusted): each is passed as one single-quoted word.
 */
export function focusCommand(command: string, failing: readonly FailingTest[]): FocusPlan | null {
  if (failing.length === 0 || SHELL_SYNTAX.test(command)) return null;
  const runner = failing[0]!.runner;
  if (failing.some((t) => t.runner !== runner || !selectable(t))) return null;
  const shape = SHAPES.find((s) => s.runner === runner);
  if (!shape) return null;
  const words = command.trim().split(/\s+/);
  let start = 0;
  while (start < words.length && ENV_ASSIGNMENT.test(words[start]!)) start++;
  const head = shape.heads.find((h) => h.every((w, k) => words[start + k] === w));
  if (!head) return null;
  const rest = words.slice(start + head.length);
  if (rest.some((w) => shape.owns.some((o) => w === o || w.startsWith(`${o}=`)))) return null;
  if (shape.positionalSelects && rest.some((w, k) => !w.startsWith('-') && !VALUE_FLAGS.has(rest[k - 1] ?? '')))
    return null;
  const tests = [...new Map(failing.map((t) => [t.id, t])).values()];
  const extra = shape.filter(tests, rest);
  if (!extra) return null;
  const prefix = words.slice(0, start + head.length);
  // go's -run goes before the packages; every other filter goes after the command's own words
  const parts = runner === 'go' ? [...prefix, ...extra.map(quote), ...rest] : [...prefix, ...rest, ...extra.map(quote)];
  return { runner, command: parts.join(' '), tests: tests.length };
}

/** A failure the runner's filter can select: one test (pytest also takes a file that failed to load). */
function selectable(t: FailingTest): boolean {
  if (t.id === '' || t.id.startsWith('-') || /[\0\n\r]/.test(t.id)) return false;
  return t.scope === 'test' || (t.scope === 'file' && t.runner === 'pytest');
}

/** A regular expression matching any of the names (as substrings). */
function anyOf(names: readonly string[]): string {
  return names.length === 1 ? escapeRegex(names[0]!) : `(${names.map(escapeRegex).join('|')})`;
}

/** Escape a name for JavaScript and RE2 regular expressions alike. */
export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** One shell word: single-quoted unless it is plainly safe. */
export function quote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
