import { describe, expect, it } from 'vitest';
import { memorySource, type AskAnswer } from '../../../src/context/index.js';
import { askedIn, askedShown, askItems, askMessages, renderReply, replyTo, requestsIn } from '../../../src/loop/ask.js';

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

describe('requests that came as tool calls', () => {
  const calls = [
    { id: 'call_a', name: 'read_file', arguments: '{"path": "a.py", "start_line": 2, "end_line": 3}' },
    { id: 'call_b', name: 'search', arguments: '{"query": "def add"' },
    { id: 'call_c', name: 'rm_rf', arguments: '{}' },
  ];

  it('makes one request per call, a malformed or unknown call an invalid one saying why', () => {
    const { requests, toolCalls } = askedIn({ text: '', toolCalls: calls }, opts);
    expect(toolCalls).toBe(calls);
    expect(requests).toEqual([
      { kind: 'read', path: 'a.py', start: 2, end: 3, call: { id: 'call_a', name: 'read_file' } },
      {
        kind: 'invalid',
        tool: 'search',
        reason: expect.stringMatching(/not JSON/) as string,
        call: { id: 'call_b', name: 'search' },
      },
      {
        kind: 'invalid',
        tool: 'rm_rf',
        reason: expect.stringMatching(/no tool named rm_rf; the tools are read_file and search/) as string,
        call: { id: 'call_c', name: 'rm_rf' },
      },
    ]);
  });

  it('still reads the content when there are no tool calls, and ignores calls beside a diff', () => {
    expect(askedIn({ text: 'READ a.py' }, opts)).toEqual({
      requests: [{ kind: 'read', path: 'a.py', start: null, end: null }],
      toolCalls: null,
    });
    const diff = '```diff\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n```\n';
    expect(askedIn({ text: diff, toolCalls: calls }, opts).requests).toEqual([]);
  });

  it('continues with the calling answer, then a tool message per call; invalid calls are answered and recorded', async () => {
    const { requests, toolCalls } = askedIn({ text: 'Let me look.', toolCalls: calls }, opts);
    const tree = [{ path: 'a.py', oid: 'a', size: 20 }];
    const source = memorySource(new Map([['a.py', 'one\ntwo\nthree\nfour\n']]));
    const { answers, reply } = await replyTo(requests, tree, source, { k: 1, max: 3 });
    const messages = askMessages('Let me look.', toolCalls, answers, reply, { k: 1, max: 3 });
    expect(messages[0]).toEqual({ role: 'assistant', content: 'Let me look.', toolCalls: calls });
    expect(messages.slice(1).map((m) => (m.role === 'tool' ? [m.toolCallId, m.toolName] : m.role))).toEqual([
      ['call_a', 'read_file'],
      ['call_b', 'search'],
      ['call_c', 'rm_rf'],
    ]);
    expect(messages[1]!.content).toContain('[lines 2-3 of 4]\ntwo\nthree\n');
    expect(messages[2]!.content).toMatch(/not JSON/);
    expect(messages[3]!.content).toContain('or another request');
    expect(messages[1]!.content).not.toContain('or another request');
    expect(askItems(answers)).toEqual([
      { kind: 'read', target: 'a.py', via: 'tool_call', outcome: 'shown', lines: '2-3', chars: 9 },
      { kind: 'invalid', target: 'search', via: 'tool_call', outcome: 'refused', chars: 0 },
      { kind: 'invalid', target: 'rm_rf', via: 'tool_call', outcome: 'refused', chars: 0 },
    ]);
  });

  it('keeps the text shape for requests written in the content', () => {
    expect(askMessages('READ a.py', null, [], 'the reply', { k: 1, max: 3 })).toEqual([
      { role: 'assistant', content: 'READ a.py' },
      { role: 'user', content: 'the reply' },
    ]);
  });
});
