// The conversation store: sealed like run states (a file hammer-box did not write under your key is
// refused), validated, listed newest first, bounded in size.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boundConversation } from '../../../src/state/conversation-bounds.js';
import { ConversationStore } from '../../../src/state/conversation-store.js';
import type { StoredMessage } from '../../../src/state/conversation.js';
import { stateKeyFromSecret } from '../../../src/state/state-key.js';
import { TEST_STATE_KEY } from '../../helpers/state-key.js';
import { conversation, CONVERSATION_ID, exchange } from '../chat/fixtures.js';

let dir: string;
let store: ConversationStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-chats-'));
  store = new ConversationStore({ dir: join(dir, '.hammer'), key: TEST_STATE_KEY });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ConversationStore', () => {
  it('writes a sealed file beside runs, reads it back, keeps .hammer out of git', async () => {
    const c = conversation({ exchanges: [exchange(1, 'hi', 'hello')] });
    await store.create(c);
    expect(await store.read(c.id)).toEqual(c);
    const text = await readFile(store.path(c.id), 'utf8');
    expect(text).toMatch(/^\{\n {2}"mac": "hmac-sha256:[0-9a-f]{64}",/);
    expect(await readFile(join(dir, '.hammer', '.gitignore'), 'utf8')).toContain('*');
    await store.writeArtifact(c.id, 'transcript.md', '# t\n');
    expect((await store.readArtifact(c.id, 'transcript.md')).toString()).toBe('# t\n');
  });

  it('refuses a file that was changed, or sealed under another key', async () => {
    const c = conversation();
    await store.create(c);
    const path = store.path(c.id);
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('"code"', '"plan"'));
    await expect(store.read(c.id)).rejects.toMatchObject({ code: 'STATE_INVALID', message: /seal does not match/ });
    const other = new ConversationStore({
      dir: join(dir, '.hammer'),
      key: stateKeyFromSecret('another-key-another-key-another-key-0000', 'other'),
    });
    await writeFile(path, text);
    await expect(other.read(c.id)).rejects.toMatchObject({ code: 'STATE_INVALID' });
    await writeFile(path, text.replace(/^\{\n {2}"mac": "[^"]+",\n/, '{\n'));
    await expect(store.read(c.id)).rejects.toMatchObject({ code: 'STATE_INVALID', message: /no seal/ });
    await expect(store.read('nope')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
  });

  it('lists the most recently updated first, and reports files it cannot read', async () => {
    const a = conversation({ id: '20261126T120000Z-aaaaaa', updated_at: '2026-11-26T12:00:00.000Z' });
    const b = conversation({ id: '20261126T110000Z-bbbbbb', updated_at: '2026-11-26T13:00:00.000Z' });
    await store.create(a);
    await store.create(b);
    await writeFile(join(dir, '.hammer', 'chats', '20261126T100000Z-cccccc.json'), '{}');
    const { conversations, skipped } = await store.list();
    expect(conversations.map((c) => c.id)).toEqual([b.id, a.id]);
    expect(skipped).toHaveLength(1);
  });

  it('keeps a conversation under its size: old tool results are elided first', () => {
    const big = 'line\n'.repeat(40_000);
    const messages: StoredMessage[] = [{ role: 'system', content: 's' }];
    for (let i = 0; i < 20; i++)
      messages.push(
        { role: 'tool', content: big, tool_call_id: `c${i}`, tool_name: 'bash' },
        { role: 'user', content: `u${i}` },
      );
    const c = conversation({ id: CONVERSATION_ID, messages });
    const bounded = boundConversation(c, 2 * 1024 * 1024);
    expect(JSON.stringify(bounded).length).toBeLessThan(2 * 1024 * 1024);
    expect(bounded.messages[1]!.content).toBe('(40001 lines of output omitted)');
    // the newest results stay whole, and every message is still there
    expect(bounded.messages.at(-2)!.content.length).toBeGreaterThan(100_000);
    expect(bounded.messages).toHaveLength(messages.length);
  });
});
