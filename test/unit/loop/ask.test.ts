import { describe, expect, it } from 'vitest';
import type { AskAnswer } from '../../../src/context/index.js';
import { askedShown, askItems, renderReply, requestsIn } from '../../../src/loop/ask.js';

const opts = { format: 'auto' as const, strict: false };

describe('requestsIn', () => {
  it('reads requests from an answer without edits', () => {
    expect(requestsIn('READ a.py', opts)).toEqual([{ kind: 'read', path: 'a.py', start: null, end: null }]);
  });

  it('never reads an answer holding a diff or NO_CHANGES as a request', () => {
    const diff = 'READ a.py\n```diff\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n```\n';
    expect(requestsIn(diff, opts)).toEqual([]);
    expect(requestsIn('NO_CHANGES', opts)).toEqual([]);
  });
});

describe('the reply and its records', () => {
  const answers: AskAnswer[] = [
    {
      request: { kind: 'read', path: 'a.py', start: 2, end: 3 },
      outcome: 'shown',
      path: 'a.py',
      start: 2,
      end: 3,
      totalLines: 9,
      hits: null,
      text: 'two\nthree',
      note: '',
    },
    {
      request: { kind: 'search', query: 'zzz' },
      outcome: 'no_hits',
      path: null,
      start: null,
      end: null,
      totalLines: null,
      hits: 0,
      text: '',
      note: 'no line holds it',
    },
  ];

  it('shows each result under its request and says what to do next', () => {
    const reply = renderReply(answers, { k: 1, max: 3 });
    expect(reply).toContain('## a.py:2-3\n\n```\n[lines 2-3 of 9]\ntwo\nthree\n```');
    expect(reply).toContain('## search: zzz\n\nno line holds it.');
    expect(reply).toContain('or another request');
    expect(renderReply(answers, { k: 3, max: 3 })).toContain('That was the last request');
  });

  it('records each request and the regions shown, with reason asked', () => {
    expect(askItems(answers)).toEqual([
      { kind: 'read', target: 'a.py', outcome: 'shown', lines: '2-3', chars: 9 },
      { kind: 'search', target: 'zzz', outcome: 'no_hits', hits: 0, chars: 0 },
    ]);
    expect(askedShown(answers)).toEqual([
      { path: 'a.py', reason: 'asked', detail: 'the model asked for it', shown: 'regions', lines: '2-3', chars: 9 },
    ]);
  });
});
