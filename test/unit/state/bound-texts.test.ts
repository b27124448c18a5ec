// The state file stays small: free texts are bounded, idempotently, with a note of what was cut.
import { describe, expect, it } from 'vitest';
import { boundStateTexts, boundText, MAX_EXCERPT_CHARS, MAX_MESSAGE_CHARS } from '../../../src/state/bound-texts.js';
import { iteration, makeState, testRecord } from './make-state.js';

describe('boundStateTexts', () => {
  it('cuts messages and test excerpts to their bounds, keeping the end of test output', () => {
    const big = 'x'.repeat(1_000_000);
    const it1 = iteration(1, 'rejected', {
      patch: 'a',
      reason: big,
      test: testRecord(1, { stdout_tail: `${big}END` }),
    });
    const it2 = iteration(2, 'unusable', { reason: big });
    const s = boundStateTexts(makeState({ reason_detail: big, iterations: [{ ...it1, summary: big }, it2] }));
    expect(s.reason_detail!.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(s.reason_detail).toContain("more characters; the run's artifacts hold the full text");
    const out = s.iterations[0]!;
    expect(out.summary.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(out.validation!.message!.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(s.iterations[1]!.extraction!.reason!.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(out.test!.stdout_tail.length).toBeLessThanOrEqual(MAX_EXCERPT_CHARS);
    expect(out.test!.stdout_tail.endsWith('END')).toBe(true);
    expect(JSON.stringify(s).length).toBeLessThan(40_000);
    // bounding again changes nothing
    expect(boundStateTexts(s)).toEqual(s);
  });

  it('leaves short texts alone', () => {
    const s = makeState({ reason_detail: 'short' });
    expect(boundStateTexts(s)).toEqual(s);
    expect(boundText('abc', 10)).toBe('abc');
  });
});
