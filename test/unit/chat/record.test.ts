// The conversation as data: messages to and from the stored form, changed files, undo's cut, the transcript.
import { describe, expect, it } from 'vitest';
import { changedFiles, fromStored, toStored, withoutLastExchange } from '../../../src/chat/record.js';
import { renderTranscript } from '../../../src/chat/transcript.js';
import type { ChatMessage } from '../../../src/llm/types.js';
import { MAX_MESSAGE_CHARS } from '../../../src/state/conversation.js';
import { conversation, exchange } from './fixtures.js';

describe('stored messages', () => {
  it('round-trip every role', () => {
    const msgs: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }] },
      { role: 'tool', content: 'out', toolCallId: 'c1', toolName: 'bash' },
      { role: 'assistant', content: 'done' },
    ];
    expect(msgs.map(toStored).map(fromStored)).toEqual(msgs);
    expect(toStored(msgs[3]!)).toEqual({ role: 'tool', content: 'out', tool_call_id: 'c1', tool_name: 'bash' });
  });
  it('cut a message over the cap in the middle', () => {
    const long = toStored({
      role: 'tool',
      content: 'x'.repeat(MAX_MESSAGE_CHARS * 2),
      toolCallId: 'a',
      toolName: 'bash',
    });
    expect(long.content.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(long.content).toContain('characters omitted');
  });
});

describe('changedFiles', () => {
  it('reads the paths of a git diff, each once', () => {
    expect(changedFiles('diff --git a/a.py b/a.py\n+x\ndiff --git a/old b/new\ndiff --git a/a.py b/a.py\n')).toEqual([
      'a.py',
      'new',
    ]);
  });
});

describe('withoutLastExchange', () => {
  it('cuts the messages back to where the last exchange began', () => {
    const c = conversation({
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'a' },
        { role: 'user', content: 'two' },
        { role: 'assistant', content: 'b' },
      ],
      exchanges: [exchange(1, 'one', 'a', { messages_at: 1 }), exchange(2, 'two', 'b', { messages_at: 3 })],
    });
    const undone = withoutLastExchange(c);
    expect(undone.exchanges.map((e) => e.n)).toEqual([1]);
    expect(undone.messages.map((m) => m.content)).toEqual(['s', 'one', 'a']);
    expect(withoutLastExchange(conversation())).toEqual(conversation());
  });
});

describe('renderTranscript', () => {
  it('shows each exchange with its calls, answer and change, sanitised', () => {
    const c = conversation({
      exchanges: [
        exchange(1, 'why \u001b]0;owned\u0007does it fail?', 'It \u001b[31msubtracts\u001b[0m.', {
          steps: [
            {
              k: 1,
              turn: 1,
              tool: 'bash',
              action: 'python3 -m pytest -q',
              shape: 'native',
              outcome: 'failed',
              exit_code: 1,
              observation: '1 failed\n```\nfence',
              observation_chars: 20,
              started_at: '2026-11-26T12:00:00.000Z',
              duration_ms: 800,
            },
          ],
          change: { bytes: 120, files: ['calc.py'], artifact: 'exchange-01.patch', sha256: 'c'.repeat(64) },
        }),
      ],
    });
    const md = renderTranscript(c);
    expect(md).toContain('# Chat 20261126T120000Z-abcdef');
    expect(md).toContain('## 1. You');
    expect(md).toContain('`python3 -m pytest -q` → exit 1');
    expect(md).toContain('````\n1 failed\n```\nfence\n````');
    expect(md).toContain('It subtracts.');
    expect(md).toContain('Change after it: 1 file (`calc.py`)');
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });
});
