// JSON as models write it, repaired only where the meaning is clear.
import { describe, expect, it } from 'vitest';
import { parseLenientJson, valueEnd } from '../../../src/agent/lenient-json.js';

describe('parseLenientJson', () => {
  it('parses clean JSON as JSON.parse does', () => {
    expect(parseLenientJson('{"a": [1, "x"]}')).toEqual({ a: [1, 'x'] });
    expect(parseLenientJson(' 42 ')).toBe(42);
    expect(parseLenientJson('"text"')).toBe('text');
  });

  it('escapes raw control characters inside strings', () => {
    expect(parseLenientJson('{"s": "a\n\tb\r"}')).toEqual({ s: 'a\n\tb\r' });
    expect(parseLenientJson('{"s": "bell\u0007"}')).toEqual({ s: 'bell\u0007' });
  });

  it('keeps a backslash that escapes nothing JSON knows', () => {
    expect(parseLenientJson(String.raw`{"c": "grep 'a\.b\(' x", "ok": "\n\u0041"}`)).toEqual({
      c: String.raw`grep 'a\.b\(' x`,
      ok: '\nA',
    });
    expect(parseLenientJson(String.raw`{"c": "\u12"}`)).toEqual({ c: String.raw`\u12` });
  });

  it('ignores text after the first whole value', () => {
    expect(parseLenientJson('{"a": "}"}} trailing <|im_end|>')).toEqual({ a: '}' });
    expect(parseLenientJson('[1, 2]\n[3]')).toEqual([1, 2]);
  });

  it('unwraps a value encoded twice, but leaves a plain string a string', () => {
    expect(parseLenientJson(JSON.stringify(JSON.stringify({ a: 1 })))).toEqual({ a: 1 });
    expect(parseLenientJson('"{not json"')).toBe('{not json');
  });

  it('undefined for what is no JSON value', () => {
    for (const s of ['', '   ', '{"a": ', '{"a" 1}', 'ls -la', "{'a': 1}"]) expect(parseLenientJson(s)).toBeUndefined();
  });
});

describe('valueEnd', () => {
  it('finds the end of an object or array, brackets in strings not counted', () => {
    expect(valueEnd('{"a": "{[}"} x')).toBe(12);
    expect(valueEnd('[{"b": "\\"]"}] y')).toBe(14);
    expect(valueEnd('{"a": 1')).toBeNull();
    expect(valueEnd('x')).toBeNull();
  });
});
