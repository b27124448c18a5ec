// The conversations of a repository, for `hammer-box chat list` (read-only).
import { resolve } from 'node:path';
import { resolveConfig } from '../config/resolve.js';
import { ConversationStore, type SkippedConversation } from '../state/conversation-store.js';
import type { Conversation } from '../state/conversation.js';
import { stateDirIn } from '../state/state-dir.js';
import { loadStateKey } from '../state/state-key.js';

/** A repository's conversations, the most recently updated first, and the files that could not be read. */
export async function listConversations(options: {
  repo: string;
  env: NodeJS.ProcessEnv;
  configFile?: string;
}): Promise<{ dir: string; conversations: Conversation[]; skipped: SkippedConversation[] }> {
  const repo = resolve(options.repo);
  const { config } = await resolveConfig({
    repo,
    env: options.env,
    ...(options.configFile ? { configFile: options.configFile } : {}),
  });
  const store = new ConversationStore({
    dir: await stateDirIn(repo, config.state.dir),
    key: await loadStateKey(options.env),
  });
  return { dir: store.chatsDir, ...(await store.list()) };
}

/** One conversation in a line's worth of fields. */
export function conversationSummary(c: Conversation): Record<string, unknown> {
  return {
    id: c.id,
    kind: c.kind,
    mode: c.mode,
    created_at: c.created_at,
    updated_at: c.updated_at,
    exchanges: c.exchanges.length,
    base_commit: c.repo.base_commit,
    model: `${c.model.provider}:${c.model.name}`,
    first_message: c.goal ?? c.exchanges[0]?.user.split('\n')[0] ?? null,
    handoffs: c.handoffs.map((h) => ({ kind: h.kind, run_id: h.run_id, branch: h.branch })),
  };
}
