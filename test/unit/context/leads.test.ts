import { describe, expect, it } from 'vitest';
import { nameKey, scoreFile, variantLeads } from '../../../src/context/file-score.js';
import { addCallees, addLead, deriveMacros, failingNames, WEIGHT, type Lead } from '../../../src/context/leads.js';
import { lineReader, useOf } from '../../../src/context/name-uses.js';
import { analyzeSource, type LanguageId, type SourceAnalysis } from '../../../src/syntax/index.js';

const analyze = (language: LanguageId, text: string): Promise<SourceAnalysis> => analyzeSource(language, text);

describe('useOf', () => {
  it.each([
    [
      'program.configureOutput({ writeErr })',
      'configureOutput',
      { called: true, qualifier: 'program', qualifies: false },
    ],
    ['doc, err := parser.Parse(input)', 'Parse', { called: true, qualifier: 'parser', qualifies: false }],
    ['let v = vec![1, 2];', 'vec', { called: true, qualifier: null, qualifies: false }],
    ['let w: W = DeJson::deserialize_json(s)', 'DeJson', { called: false, qualifier: null, qualifies: true }],
    ['expect(dataset.issues).toHaveLength(1)', 'issues', { called: false, qualifier: 'dataset', qualifies: false }],
    ['const d = { value: 1 }', 'value', { called: false, qualifier: '', qualifies: false }],
    ['wrap(text, width=3)', 'width', { called: false, qualifier: '', qualifies: false }],
    ['items[0]', 'items', { called: false, qualifier: null, qualifies: false }],
    ['rewrap(x)', 'wrap', { called: false, qualifier: null, qualifies: false }],
  ])('%s: %s', (line, name, use) => {
    expect(useOf(line, name)).toEqual(use);
  });
});

describe('failingNames', () => {
  it('weighs what the failing test calls above what it uses, reads or imports, and reads only its failing part', async () => {
    const text = [
      'from . import lib',
      'from pkg.util import helper',
      '',
      '',
      'def test_other():',
      '    assert lib.elsewhere(1)',
      '',
      '',
      'def test_wrap():',
      '    w = lib.TextWrapper(width=3)',
      '    assert lib.wrap("abc", width=3) == w.lines',
    ].join('\n');
    const leads = new Map<string, Lead>();
    failingNames({ text, analysis: await analyze('python', text), lines: [11], test: true }, leads);
    expect(leads.get('wrap')).toEqual({ weight: WEIGHT.called, why: 'called in the failing test' });
    expect(leads.get('TextWrapper')?.weight).toBe(WEIGHT.called);
    expect(leads.get('lines')?.weight).toBe(WEIGHT.imported);
    expect(leads.get('width')?.weight).toBe(WEIGHT.imported);
    expect(leads.get('helper')).toEqual({ weight: WEIGHT.imported, why: 'imported by the failing test' });
    expect(leads.has('elsewhere')).toBe(false);
    expect(leads.has('assert')).toBe(false);
  });

  it("calls Go's pkg.Func qualified, and Rust's derives and call qualifiers derived", async () => {
    const go =
      'package m_test\n\nimport "example.com/m/parser"\n\nfunc TestX(t *testing.T) {\n\tparser.Parse("x")\n}\n';
    const leads = new Map<string, Lead>();
    failingNames({ text: go, analysis: await analyze('go', go), lines: [6], test: true }, leads);
    expect(leads.get('Parse')).toEqual({ weight: WEIGHT.qualified, why: 'called as parser.Parse in the failing test' });
    const rs =
      'use lib::DeJson;\n\n#[derive(DeJson, Debug, PartialEq)]\nstruct W {\n    a: i32,\n}\n\n#[test]\nfn de() {\n    let w: W = DeJson::deserialize_json("{}").unwrap();\n}\n';
    const rl = new Map<string, Lead>();
    failingNames({ text: rs, analysis: await analyze('rust', rs), lines: [10], test: true }, rl);
    expect(rl.get('DeJson')?.weight).toBe(WEIGHT.derived);
    expect(rl.get('deserialize_json')?.weight).toBe(WEIGHT.called);
    expect(rl.has('Debug')).toBe(false);
  });

  it("takes a Go call given the test's t for an assertion helper, not the code under test", async () => {
    const text = [
      'package issue_test',
      '',
      'import (',
      '\t"testing"',
      '',
      '\t"github.com/expr-lang/expr"',
      '\t"github.com/expr-lang/expr/internal/testify/require"',
      ')',
      '',
      'func TestIssue(t *testing.T) {',
      '\tprogram, err := expr.Compile(`1`)',
      '\trequire.NoError(t, err)',
      '\tassertOutput(t, program)',
      '}',
    ].join('\n');
    const leads = new Map<string, Lead>();
    failingNames({ text, analysis: await analyze('go', text), lines: [12], test: true }, leads);
    expect(leads.get('Compile')?.weight).toBe(WEIGHT.qualified);
    expect(leads.get('NoError')).toEqual({ weight: WEIGHT.imported, why: 'called in the failing test' });
    expect(leads.get('assertOutput')?.weight).toBe(WEIGHT.imported);
  });

  it('counts the derives of the types the failing test uses, not every derive of the file', async () => {
    const text = [
      'use mj::{DeJson, SerJson};',
      '',
      '#[derive(SerJson)]',
      'struct Other {',
      '    a: i32,',
      '}',
      '',
      '#[derive(DeJson, Debug)]',
      '/// A point.',
      'pub struct Point {',
      '    x: i32,',
      '}',
      '',
      '#[test]',
      'fn de_point() {',
      '    let p: Point = DeJson::deserialize_json("{}").unwrap();',
      '}',
      '',
      '#[test]',
      'fn ser_other() {',
      '    let _ = Other { a: 1 }.serialize_json();',
      '}',
    ].join('\n');
    const leads = new Map<string, Lead>();
    failingNames({ text, analysis: await analyze('rust', text), lines: [16], test: true }, leads);
    expect(leads.get('DeJson')?.weight).toBe(WEIGHT.derived);
    expect(leads.get('SerJson')?.weight ?? 0).toBeLessThan(WEIGHT.derived);
  });

  it('counts what code the traceback names uses as a weak lead', async () => {
    const text = 'def read_port(settings):\n    return parse_int(settings["port"])\n';
    const leads = new Map<string, Lead>();
    failingNames({ text, analysis: await analyze('python', text), lines: [2], test: false }, leads);
    expect(leads.get('parse_int')).toEqual({ weight: WEIGHT.imported, why: 'used in the code the failure names' });
  });
});

describe('addCallees and scoreFile', () => {
  it('adds what the named definitions call, one level weaker, then one more; a long class adds nothing', async () => {
    const text = [
      'def wrap(text):',
      '    return _wrap_chunks(_split(text), text.width)',
      '',
      'def _wrap_chunks(chunks):',
      '    return _handle_long_word(chunks)',
      '',
      `class Big:\n${Array.from({ length: 200 }, (_, i) => `    def m${i}(self):\n        return helper${i}()\n`).join('')}`,
    ].join('\n');
    const analysis = await analyze('python', text);
    const leads = new Map<string, Lead>();
    addLead(leads, 'wrap', { weight: WEIGHT.called, why: 'called in the failing test' });
    addLead(leads, 'Big', { weight: WEIGHT.called, why: 'called in the failing test' });
    addCallees(leads, [{ analysis, text }]);
    expect(leads.get('_wrap_chunks')).toEqual({ weight: WEIGHT.callee, why: 'called by wrap' });
    expect(leads.get('_handle_long_word')).toEqual({ weight: WEIGHT.callee2, why: 'called by _wrap_chunks' });
    // a property read is no callee; the long class's members are not its callees
    expect(leads.has('width')).toBe(false);
    expect(leads.has('helper3')).toBe(false);
  });

  it('scores a file by its strongest lead, less when many files define the name, and says which names', async () => {
    const text = 'def get(x):\n    return x\n\n\ndef wrap(x):\n    return x\n\n\ndef fill(x):\n    return x\n';
    const analysis = await analyze('python', text);
    const leads = new Map<string, Lead>([
      ['wrap', { weight: 6, why: 'called in the failing test' }],
      ['fill', { weight: 6, why: 'called in the failing test' }],
      ['get', { weight: 5, why: 'named like the failing test' }],
    ]);
    const one = scoreFile(analysis, leads, new Map([['get', 1]]));
    expect(one).toMatchObject({
      score: 6,
      top: { name: 'wrap and fill', lead: { weight: 6, why: 'called in the failing test' } },
      names: ['wrap', 'fill', 'get'],
    });
    const many = scoreFile(
      analysis,
      leads,
      new Map([
        ['wrap', 6],
        ['fill', 6],
      ]),
    );
    expect(many.score).toBe(5);
    expect(many.top?.name).toBe('get');
    expect(scoreFile(null, leads, new Map()).score).toBe(0);
  });
});

describe('another spelling of a strong lead', () => {
  it('matches HelpOption for help_option, a point less, and says which names matched so', async () => {
    const text = 'class Option:\n    pass\n\n\nclass HelpOption(Option):\n    pass\n\n\ndef helpers():\n    pass\n';
    const analysis = await analyze('python', text);
    const leads = new Map<string, Lead>([
      ['help_option', { weight: WEIGHT.called, why: 'called in the failing test' }],
      ['HelpOption', { weight: WEIGHT.callee, why: 'called by help_option' }],
      ['option', { weight: WEIGHT.imported, why: 'imported by the failing test' }],
    ]);
    expect(nameKey('help_option')).toBe(nameKey('HelpOption'));
    const scored = scoreFile(analysis, leads, new Map(), variantLeads(leads));
    expect(scored.score).toBe(WEIGHT.called - 1);
    expect(scored.names[0]).toBe('HelpOption');
    expect(scored.variants).toEqual(['HelpOption']);
    // a weak lead has no other spellings
    expect(scored.values.has('Option')).toBe(false);
  });
});

describe('deriveMacros and lineReader', () => {
  it("maps a proc-macro crate's derive names to their functions", async () => {
    const text =
      'extern crate proc_macro;\n\n#[proc_macro_derive(DeJson, attributes(mj))]\npub fn derive_de_json(input: TokenStream) -> TokenStream {\n    input\n}\n';
    expect(deriveMacros(text, await analyze('rust', text))).toEqual(new Map([['DeJson', 'derive_de_json']]));
  });
  it('reads a line by its number', () => {
    const line = lineReader('a\nbb\n\nccc');
    expect([line(1), line(2), line(3), line(4), line(5)]).toEqual(['a', 'bb', '', 'ccc', '']);
  });
});

describe('useOf on a generated line', () => {
  it('reads a line too long to be code as a plain use, without scanning it per name', () => {
    const line = `${'a.b(c);'.repeat(50_000)}configureOutput()`;
    expect(useOf(line, 'configureOutput')).toEqual({ called: false, qualifier: null, qualifies: false });
  });
});
