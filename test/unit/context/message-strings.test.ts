import { describe, expect, it } from 'vitest';
import { failingRegions } from '../../../src/context/failing-regions.js';
import { assertedStrings, printedStrings, searchable } from '../../../src/context/message-strings.js';
import { analyzeSource } from '../../../src/syntax/index.js';

describe('searchable', () => {
  it.each([
    ['day is out of range', true],
    ['unused-argument', true],
    ['triple-quoted-string', true],
    ['abcdefgh', false],
    ['convertAction', false],
    ['text_block_feature', false],
    ['x y', false],
    ['unknown name %v', false],
    ['tests/data/unused_argument.py', false],
    ['unused_argument.py', false],
    ['1 + 2 = 3', false],
  ])('%s: %s', (text, ok) => {
    expect(searchable(text)).toBe(ok);
  });
});

describe('assertedStrings', () => {
  it("takes the failing test's string literals, not the other tests'", async () => {
    const text = [
      'import pytest',
      '',
      '',
      'def test_other():',
      '    assert f("no such key") is None',
      '',
      '',
      'def test_rejects():',
      '    with pytest.raises(ValueError, match="day is out of range"):',
      "        parse('1900-02-29')",
    ].join('\n');
    const analysis = await analyzeSource('python', text);
    const regions = failingRegions(text, analysis, [10]);
    expect(assertedStrings(text, regions).map((s) => s.text)).toEqual(['day is out of range']);
    expect(assertedStrings(text, []).map((s) => s.text)).toEqual(['no such key', 'day is out of range']);
  });
});

describe('printedStrings', () => {
  it('takes quoted parts and the word runs of error messages, which format strings hold in pieces', () => {
    const go = printedStrings([
      '    --- FAIL: TestCheck/1 (0.00s)\n        checker_test.go:35: Check("1 + \\"a\\"") = <nil>, want error "invalid operation: + (mismatched types int and string) (1:3)"',
    ]).map((s) => s.text);
    expect(go).toEqual(
      expect.arrayContaining([
        'invalid operation: + (mismatched types int and string) (1:3)',
        'invalid operation',
        'mismatched types int and string',
        'mismatched types',
      ]),
    );
    const lexer = printedStrings([
      'lexer_test.go:26: Lex("`abc") error = unexpected EOF, want "unterminated raw string"',
    ]);
    expect(lexer.map((s) => s.text)).toEqual(expect.arrayContaining(['unexpected EOF', 'unterminated raw string']));
    const py = printedStrings([
      'E       AssertionError: Wrong message(s) raised for "unused_argument_in_nested_class.py":',
      "E       assert Counter({(4, 'unused-argument'): 1}) == Counter()",
    ]).map((s) => s.text);
    expect(py).toContain('unused-argument');
    expect(py).not.toContain('unused_argument_in_nested_class.py');
  });
  it('reads the error testify prints under its Error label, not the snippet or the diff after it', () => {
    const testify = printedStrings([
      [
        '    issue_test.go:12: ',
        '        \tError Trace:\t/workspace/test/issues/819/issue_test.go:12',
        '        \tError:      \tReceived unexpected error:',
        '        \t            \tunknown name index (1:26)',
        '        \t            \t | let a = [1, 2]; map(a, index)',
        '        \tTest:       \tTestIssue819',
      ].join('\n'),
    ]).map((s) => s.text);
    expect(testify).toEqual(expect.arrayContaining(['unknown name index', 'Received unexpected error']));
    expect(testify.some((t) => t.includes('let a'))).toBe(false);
    expect(testify).not.toContain('TestIssue819');
  });
});

describe('failingRegions', () => {
  it('is the enclosing definition, or in JS/TS the enclosing test call, of each named line', async () => {
    const js = [
      "describe('prices', () => {",
      "  test('a', () => {",
      '    expect(one()).toBe(1);',
      '  });',
      '',
      "  test('b', async () => {",
      '    const x = two();',
      '    expect(x).toBe(2);',
      '  });',
      '});',
    ].join('\n');
    expect(failingRegions(js, await analyzeSource('javascript', js), [8])).toEqual([{ start: 6, end: 9 }]);
    const py = 'def test_a():\n    assert 1\n\n\ndef test_b():\n    assert 2\n';
    expect(failingRegions(py, await analyzeSource('python', py), [6])).toEqual([{ start: 5, end: 6 }]);
    expect(failingRegions(py, await analyzeSource('python', py), [])).toEqual([]);
  });
});
