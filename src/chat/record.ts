// The conversation as data (pure): a new one, the model's messages to and from the stored form,
// the files a change touches, the exchanges after an undo.
import { createHash } from 'node:crypto';
import type { ChatMessage } from '../llm/types.js';
import { cutMiddle } from '../state/conversation-bounds.js';
import {
  CONVERSATION_SCHEMA_VERSION,
  MAX_MESSAGE_CHARS,
  conversationArtifacts,
  type ChatMode,
  type Conversation,
  type ConversationKind,
  type StoredMessage,
} from '../state/conversation.js';

/** What a new conversation starts from. */
export interface NewConversation {
  id: string;
  kind: ConversationKind;
  now: Date;
  repo: Conversation['repo'];
  model: Conversation['model'];
  image: Conversation['image'];
  testCommand: string;
  mode: ChatMode;
  system: string;
  goal?: string;
  owner?: Conversation['owner'];
}

/** A conversation with only its system message. */
export function newConversation(n: NewConversation): Conversation {
  const at = n.now.toISOString();
  return {
    schema_version: CONVERSATION_SCHEMA_VERSION,
    id: n.id,
    kind: n.kind,
    created_at: at,
    updated_at: at,
    repo: n.repo,
    model: n.model,
    image: n.image,
    test_command: n.testCommand,
    mode: n.mode,
    ...(n.goal === undefined ? {} : { goal: n.goal }),
    messages: [{ role: 'system', content: n.system }],
    exchanges: [],
    last_test: null,
    handoffs: [],
    transcript: conversationArtifacts.transcript(),
    ...(n.owner ? { owner: n.owner } : {}),
  };
}

/** A model message as the file keeps it (its text cut to the cap). */
export function toStored(m: ChatMessage): StoredMessage {
  const content = cutMiddle(m.content, MAX_MESSAGE_CHARS);
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content };
    case 'assistant':
      return m.toolCalls && m.toolCalls.length > 0
        ? {
            role: 'assistant',
            content,
            tool_calls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
          }
        : { role: 'assistant', content };
    case 'tool':
      return { role: 'tool', content, tool_call_id: m.toolCallId, tool_name: m.toolName };
  }
}

/** A stored message as the model client takes it. */
export function fromStored(m: StoredMessage): ChatMessage {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant':
      return m.tool_calls ? { role: 'assistant', content: m.content, toolCalls: m.tool_calls } : m;
    case 'tool':
      return { role: 'tool', content: m.content, toolCallId: m.tool_call_id, toolName: m.tool_name };
  }
}

/** The repository paths a `git diff` touches, in order, each once (untrusted text: only read). */
export function changedFiles(patch: string): string[] {
  const files: string[] = [];
  for (const m of patch.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gm)) {
    const path = m[2]!;
    if (!files.includes(path)) files.push(path);
  }
  return files;
}

/** The sha256 of bytes, hex. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The conversation without its last exchange: its messages and its record (see /undo). */
export function withoutLastExchange(c: Conversation): Conversation {
  const last = c.exchanges.at(-1);
  if (last === undefined) return c;
  return { ...c, messages: c.messages.slice(0, last.messages_at), exchanges: c.exchanges.slice(0, -1) };
}
