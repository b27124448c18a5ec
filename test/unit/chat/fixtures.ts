// A conversation record for the chat's unit tests.
import { newConversation } from '../../../src/chat/record.js';
import type { Conversation, Exchange } from '../../../src/state/conversation.js';

/** A conversation id of the right shape. */
export const CONVERSATION_ID = '20261126T120000Z-abcdef';

/** A new conversation with a system message. */
export function conversation(over: Partial<Conversation> = {}): Conversation {
  return {
    ...newConversation({
      id: CONVERSATION_ID,
      kind: 'chat',
      now: new Date('2026-11-26T12:00:00Z'),
      repo: { path: '/home/u/calc', base_ref: 'main', base_commit: 'a'.repeat(40), base_tree: 'b'.repeat(40) },
      model: { provider: 'ollama', name: 'test-model', url: 'http://127.0.0.1:11434' },
      image: { ref: 'hammer-box/python:x', id: 'sha256:1' },
      testCommand: 'python3 -m pytest -q',
      mode: 'code',
      system: 'system',
    }),
    ...over,
  };
}

/** One exchange. */
export function exchange(n: number, user: string, answer: string, over: Partial<Exchange> = {}): Exchange {
  return {
    n,
    started_at: '2026-11-26T12:00:00.000Z',
    mode: 'code',
    messages_at: 1 + (n - 1) * 2,
    user,
    answer,
    turns: 1,
    steps: [],
    prompt_tokens: 100,
    completion_tokens: 10,
    duration_ms: 1200,
    end: { reason: 'answered', detail: '' },
    change: null,
    ...over,
  };
}
