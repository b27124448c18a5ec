// The names the failure leads to, each with a weight and why (pure): what the failing test calls and
// uses, the frames of its traceback, what the directive names, what those definitions call in turn.
// A file defining a name is worth as much as its strongest name, less when many files define it.
import type { Definition, SourceAnalysis } from '../syntax/index.js';
import { failingRegions } from './failing-regions.js';
import { isTestHelperCall } from './call-sites.js';
import { lineReader, useOf } from './name-uses.js';
import { MAX_REGION_LINES } from './regions.js';

/** Why a name matters, and how much (see WEIGHT). */
export interface Lead {
  weight: number;
  why: string;
  /** What a definition of the name is, said instead of the name (`the derive macro DeJson`). */
  as?: string;
}

/** How much each kind of lead is worth: a definition the failing test names outranks everything else. */
export const WEIGHT = {
  /** `pkg.Func(…)` in the failing test, `pkg` one of its imports. */
  qualified: 7,
  /** Called in the failing test (`program.configureOutput(…)`, `parse(…)`, `value!(…)`). */
  called: 6,
  /** A frame of the traceback or stack. */
  frame: 6,
  /** The file holds a message the failure asserts or prints. */
  message: 6,
  /** Named like the failing test (`lexRawString` for `TestLex/unterminated_raw_string`). */
  title: 5,
  /** Named in the directive. */
  directive: 4,
  /** Derived or a call's qualifier in the failing test (`#[derive(DeJson)]`, `DeJson::…`). */
  derived: 4,
  /** Used in the failing test (a type, a constant, a variable of the module). */
  used: 3,
  /** On the call chain from the failing test, right below what it calls (a quarter less per call deeper). */
  chain: 3,
  /** Imported by the failing test, or used in code the traceback names. */
  imported: 2,
  /** Called by a definition of weight `used` or more. */
  callee: 2,
  /** Called by a callee. */
  callee2: 1,
} as const;

/** Names everybody uses and no fix is about: test frameworks, builtins, receivers. */
const COMMON = new Set(
  [
    'self', 'this', 'cls', 'super', 'None', 'True', 'False', 'nil', 'true', 'false', 'null', 'undefined', 'assert',
    'assertEqual', 'assertTrue', 'assertFalse', 'assertRaises', 'assertIn', 'assertIs', 'assertIsNone', 'expect',
    'toBe', 'toEqual', 'toStrictEqual', 'toThrow', 'toHaveBeenCalled', 'toHaveBeenCalledTimes', 'toHaveLength',
    'toContain', 'toMatch', 'not', 'describe', 'it', 'test', 'require', 'len', 'print', 'str', 'int', 'float', 'bool',
    'list', 'dict', 'set', 'tuple', 'range', 'isinstance', 'pytest', 'raises', 'mark', 'parametrize', 'fixture', 'jest',
    'vi', 'fn', 'spyOn', 'mockImplementation', 'console', 'log', 'Object', 'Array', 'JSON', 'Promise', 'Math',
    'Error', 'Errorf', 'Fatalf', 'Fatal', 'Run', 'Helper', 'Log', 'Logf', 'testing', 'fmt', 'Sprintf', 'unwrap',
    'assert_eq', 'assert_ne', 'panic', 'println', 'format', 'vec', 'Some', 'Ok', 'Err', 'to_string', 'clone',
    'into', 'iter', 'collect', 'push', 'append', 'get', 'err', 'ok', 'want', 'got', 'tt', 'tc',
  ], // prettier-ignore
);

/** A name everybody uses and no fix is about (a test framework's, a builtin). */
export function isCommonName(name: string): boolean {
  return COMMON.has(name);
}

/** Add a lead for a name, keeping the strongest. */
export function addLead(leads: Map<string, Lead>, name: string, lead: Lead): void {
  if (name.length < 2 || COMMON.has(name)) return;
  const known = leads.get(name);
  if (known === undefined || known.weight < lead.weight) leads.set(name, lead);
}

/** One file the failure names, as read: its text, analysis, the lines named and whether it holds tests. */
export interface FailingFile {
  text: string;
  analysis: SourceAnalysis;
  lines: readonly number[];
  test: boolean;
}

/**
 * The names a failing file leads to: in a test, what the failing regions (the whole file when no line is
 * named) call, use and derive, and what it imports; in code the traceback names, what those lines use.
 */
export function failingNames(file: FailingFile, leads: Map<string, Lead>): void {
  const { analysis } = file;
  const regions = failingRegions(file.text, analysis, file.lines);
  const inRegion = (line: number): boolean =>
    regions.length === 0 || regions.some((r) => r.start <= line && line <= r.end);
  const lineOf = lineReader(file.text);
  const packages = new Set(
    analysis.language === 'go' ? analysis.imports.map((i) => i.source.split('/').at(-1) ?? '') : [],
  );
  const where = file.test ? 'the failing test' : 'the code the failure names';
  for (const id of analysis.identifiers) {
    if (!inRegion(id.line)) continue;
    if (!file.test) {
      addLead(leads, id.name, { weight: WEIGHT.imported, why: `used in ${where}` });
      continue;
    }
    const line = lineOf(id.line);
    const use = useOf(line, id.name);
    if (use.called && analysis.language === 'go' && isTestHelperCall(line, id.name)) {
      // `require.NoError(t, err)`: an assertion helper, not the code under test
      addLead(leads, id.name, { weight: WEIGHT.imported, why: `called in ${where}` });
    } else if (use.called && use.qualifier !== null && packages.has(use.qualifier)) {
      addLead(leads, id.name, { weight: WEIGHT.qualified, why: `called as ${use.qualifier}.${id.name} in ${where}` });
    } else if (use.called) {
      addLead(leads, id.name, { weight: WEIGHT.called, why: `called in ${where}` });
    } else if (use.qualifies) {
      addLead(leads, id.name, { weight: WEIGHT.derived, why: `used in ${where}` });
    } else if (use.qualifier !== null) {
      // a field or property read (`dataset.value`): rarely what the fix is about
      addLead(leads, id.name, { weight: WEIGHT.imported, why: `used in ${where}` });
    } else {
      addLead(leads, id.name, { weight: WEIGHT.used, why: `used in ${where}` });
    }
  }
  if (!file.test) return;
  for (const ref of analysis.imports) {
    for (const name of ref.names) addLead(leads, name, { weight: WEIGHT.imported, why: `imported by ${where}` });
  }
  if (analysis.language === 'rust') {
    // the derives of the types the failing test's own code uses (the whole file's when no line is named)
    const used = new Set(analysis.identifiers.filter((i) => inRegion(i.line)).map((i) => i.name));
    const starts = [0];
    for (let at = file.text.indexOf('\n'); at >= 0; at = file.text.indexOf('\n', at + 1)) starts.push(at + 1);
    const lineAt = (offset: number): number => {
      let lo = 0;
      let hi = starts.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (starts[mid]! <= offset) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    for (const m of file.text.matchAll(DERIVE)) {
      if (!inRegion(lineAt(m.index)) && !(m[2] !== undefined && used.has(m[2]))) continue;
      for (const name of m[1]!.split(',').map((n) => n.trim().split('::').at(-1) ?? '')) {
        if (/^[A-Z]\w*$/.test(name) && !STD_DERIVES.has(name))
          addLead(leads, name, { weight: WEIGHT.derived, why: `derived in ${where}` });
      }
    }
  }
}

/** A derive attribute and the type it is on (`#[derive(DeJson)] pub struct W`). */
const DERIVE =
  /#\[derive\(([^)\]]{1,400})\)\](?:\s*(?:#\[[^\]\n]{0,200}\]|\/\/\/[^\n]{0,200}))*\s*(?:pub(?:\([\w\s]{0,20}\))?\s+)?(?:struct|enum|union)\s+([A-Za-z_]\w*)/g;

const STD_DERIVES = new Set(['Debug', 'Clone', 'Copy', 'PartialEq', 'Eq', 'PartialOrd', 'Ord', 'Hash', 'Default']);

/** A file's analysis and text, for what its definitions call. */
export interface CodeFile {
  analysis: SourceAnalysis;
  text: string;
}

/** The names a definition calls or uses as types and qualifiers (not the fields and properties it reads). */
export function usedIn(file: CodeFile, d: Definition, lineOf: (n: number) => string): string[] {
  const ids = file.analysis.identifiers;
  const out: string[] = [];
  // identifiers are in source order: start at the definition's first line
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]!.line < d.startLine) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < ids.length && ids[k]!.line <= d.endLine; k++) {
    const i = ids[k]!;
    const use = useOf(lineOf(i.line), i.name);
    if (use.called || use.qualifies || use.qualifier === null || /^[A-Z]/.test(i.name)) out.push(i.name);
  }
  return out;
}

/** Definitions matched per name: how many of the files read define it (outside tests). */
export function definers(analyses: Iterable<SourceAnalysis>): Map<string, number> {
  const count = new Map<string, number>();
  for (const a of analyses) {
    for (const name of new Set(a.definitions.map((d) => d.name))) count.set(name, (count.get(name) ?? 0) + 1);
  }
  return count;
}

/** Containers whose callees are their members: followed only when short enough to show whole. */
const CONTAINERS = new Set(['class', 'interface', 'trait', 'impl', 'module', 'struct', 'enum']);

/**
 * Widen the leads by what the definitions they name call: one round for the strong leads (their callees
 * get `callee`), one more for those (`callee2`). Definitions are looked for in every analysis given; a
 * long class or impl adds nothing (its callees are all of its members).
 */
export function addCallees(leads: Map<string, Lead>, files: readonly CodeFile[]): void {
  const readers = new Map<CodeFile, (n: number) => string>();
  for (const [min, weight] of [
    [WEIGHT.used, WEIGHT.callee],
    [WEIGHT.callee, WEIGHT.callee2],
  ] as const) {
    const fresh: [string, Lead][] = [];
    for (const f of files) {
      for (const d of f.analysis.definitions) {
        const lead = leads.get(d.name);
        if (lead === undefined || lead.weight < min || d.kind === 'variable') continue;
        if (CONTAINERS.has(d.kind) && d.endLine - d.startLine >= MAX_REGION_LINES) continue;
        let lineOf = readers.get(f);
        if (lineOf === undefined) readers.set(f, (lineOf = lineReader(f.text)));
        for (const name of usedIn(f, d, lineOf)) {
          if (name !== d.name) fresh.push([name, { weight, why: `called by ${d.name}` }]);
        }
      }
    }
    for (const [name, lead] of fresh) addLead(leads, name, lead);
  }
}

/** The derive macros a Rust file defines: `#[proc_macro_derive(DeJson)]` on `fn derive_de_json` (alias → function). */
export function deriveMacros(text: string, analysis: SourceAnalysis): Map<string, string> {
  const out = new Map<string, string>();
  if (analysis.language !== 'rust' || !text.includes('proc_macro_derive')) return out;
  const lines = text.split('\n');
  for (const d of analysis.definitions) {
    if (d.kind !== 'function') continue;
    // the attributes in front of it are part of its range
    for (const line of lines.slice(d.startLine - 1, Math.min(d.endLine, d.startLine + 8))) {
      const m = /#\[\s*proc_macro_derive\(\s*([A-Za-z_]\w*)/.exec(line);
      if (m) out.set(m[1]!, d.name);
    }
  }
  return out;
}
