// The parser corpus (test/fixtures/tool-calls): every answer in the peers' shapes reads as the
// peers read it; nothing runs from inside a value, and a cut-off answer runs nothing.
import { describe, expect, it } from 'vitest';
import { PARSER_CASES } from '../../fixtures/tool-calls/corpus.js';
import { judgeCase } from '../../fixtures/tool-calls/judge.js';

describe('the parser corpus', () => {
  it.each(PARSER_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const j = judgeCase(c);
    expect(j.verdict, JSON.stringify(j.turn, null, 1)).toBe('right');
  });

  it('covers every text format and the edges the peers test', () => {
    const text = PARSER_CASES.map((c) => c.text).join('\n');
    for (const token of [
      '<function=',
      '<tool_call>\n{',
      '[TOOL_CALLS]',
      '<|channel|>',
      '<｜tool▁calls▁begin｜>',
      '<|python_tag|>',
      '>>>',
      '<|tool_call|>',
      'functools[',
      '<|START_ACTION|>',
      '<think>',
    ])
      expect(text).toContain(token);
    expect(
      PARSER_CASES.filter((c) => 'refused' in c.expect && c.expect.refused === 'cut').length,
    ).toBeGreaterThanOrEqual(5);
  });
});
