// The conversation store: chat and plan conversations in <state dir>/chats/<id>.json, their
// transcript and changes in <state dir>/chats/<id>/. Sealed with the same state key as run states: a
// file whose seal does not verify is not trusted, whoever put it there.
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { HammerError, isHammerError } from '../errors.js';
import { sweepTempFiles, writeFileAtomic } from './atomic-write.js';
import { boundConversation } from './conversation-bounds.js';
import { CONVERSATION_SCHEMA_VERSION, ConversationSchema, type Conversation } from './conversation.js';
import { isRunId, newRunId, RUN_ID_PATTERN } from './run-id.js';
import { ArtifactNameSchema } from './run-state.js';
import { STATE_KEY_ENV, type StateKey } from './state-key.js';
import { openSealedState, sealState } from './state-mac.js';
import { ignoreInGit, issuePath, readCapped, refuseLinks, refuseSymlinkDirs, unwritable } from './store.js';

/** The largest conversation file written or read. */
export const MAX_CONVERSATION_BYTES = 16 * 1024 * 1024;
/** The largest artifact of a conversation read back. */
const MAX_ARTIFACT_BYTES = 16 * 1024 * 1024;

/** A conversation file that could not be read, and why. */
export interface SkippedConversation {
  file: string;
  message: string;
}

/** Reads and writes the conversations of one state directory. */
export class ConversationStore {
  readonly dir: string;
  readonly chatsDir: string;
  readonly #key: StateKey;
  readonly #pending = new Map<string, Promise<void>>();

  constructor(options: { dir: string; key: StateKey }) {
    this.dir = options.dir;
    this.chatsDir = join(options.dir, 'chats');
    this.#key = options.key;
  }

  /** A new unique conversation id (the shape of a run id). */
  newId(now?: Date): string {
    return newRunId(now);
  }

  /** The conversation's file. */
  path(id: string): string {
    return join(this.chatsDir, `${checkId(id)}.json`);
  }

  /** Its artifacts directory (transcript.md, the changes). */
  artifactsDir(id: string): string {
    return join(this.chatsDir, checkId(id));
  }

  /** Start a conversation: claim its id and write it. */
  async create(c: Conversation): Promise<void> {
    await refuseSymlinkDirs([this.dir], true);
    await mkdir(this.dir, { recursive: true });
    await refuseSymlinkDirs([this.dir]);
    await ignoreInGit(this.dir);
    await mkdir(this.chatsDir).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') unwritable(err, this.chatsDir, null);
    });
    await refuseSymlinkDirs([this.dir, this.chatsDir]);
    await sweepTempFiles(this.chatsDir);
    try {
      await mkdir(this.artifactsDir(c.id));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST')
        throw new HammerError('INTERNAL', `conversation id ${c.id} is already taken in ${this.chatsDir}`);
      unwritable(err, this.artifactsDir(c.id), null);
    }
    await this.write(c);
  }

  /** Replace the conversation's file atomically: bounded in size, validated, sealed. */
  async write(c: Conversation): Promise<Conversation> {
    const bounded = boundConversation(c, MAX_CONVERSATION_BYTES);
    const parsed = ConversationSchema.safeParse(bounded);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HammerError(
        'INTERNAL',
        `refusing to write an invalid conversation: ${issuePath(issue?.path ?? [])}: ${issue?.message ?? ''}`,
      );
    }
    const body = sealState(`${JSON.stringify(parsed.data, null, 2)}\n`, this.#key.bytes);
    if (Buffer.byteLength(body) > MAX_CONVERSATION_BYTES)
      throw new HammerError('STATE_UNWRITABLE', `conversation ${c.id} would be over ${MAX_CONVERSATION_BYTES} bytes`, {
        hint: 'start a new conversation (/new, or hammer-box chat --new)',
      });
    const path = this.path(c.id);
    await this.#serialise(c.id, async () => {
      await refuseLinks([this.dir, this.chatsDir]);
      await writeFileAtomic(path, body).catch((err: unknown) => unwritable(err, path, null));
    });
    return parsed.data;
  }

  /** Read, verify and validate one conversation: RUN_NOT_FOUND or STATE_INVALID (naming the file and why). */
  async read(id: string): Promise<Conversation> {
    if (!isRunId(id))
      throw new HammerError(
        'RUN_NOT_FOUND',
        `no conversation ${JSON.stringify(id)}: ids look like 20261122T140501Z-k3b7qa`,
        {
          hint: 'list them with: hammer-box chat list',
        },
      );
    const path = this.path(id);
    let text: string;
    try {
      text = (await readCapped(path, MAX_CONVERSATION_BYTES)).toString('utf8');
    } catch (err) {
      if (isHammerError(err)) throw err;
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new HammerError('RUN_NOT_FOUND', `no conversation ${id} in ${this.chatsDir}`, {
          hint: 'list them with: hammer-box chat list',
        });
      throw new HammerError('STATE_INVALID', `${path}: cannot read: ${(err as Error).message}`, { cause: err });
    }
    const opened = openSealedState(text, this.#key.bytes);
    if (!opened.ok)
      throw new HammerError(
        'STATE_INVALID',
        `${path}: not trusted: ${opened.reason === 'unsealed' ? 'it carries no seal, so hammer-box did not write it for you' : `its seal does not match your state key (${this.#key.source})`}`,
        {
          hint: `hammer-box continues only conversations it recorded under your key (a conversation recorded on another machine needs that machine's key in ${STATE_KEY_ENV}); start a new one with 'hammer-box chat --new'`,
        },
      );
    return parseConversation(path, id, opened.body);
  }

  /** Every readable conversation, the most recently updated first; unreadable files are reported, not fatal. */
  async list(): Promise<{ conversations: Conversation[]; skipped: SkippedConversation[] }> {
    let names: string[];
    try {
      await refuseSymlinkDirs([this.dir, this.chatsDir]);
      names = await readdir(this.chatsDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { conversations: [], skipped: [] };
      if (isHammerError(err, 'REPO_INVALID')) return { conversations: [], skipped: [] };
      throw err;
    }
    const conversations: Conversation[] = [];
    const skipped: SkippedConversation[] = [];
    for (const name of names.sort()) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
      if (!RUN_ID_PATTERN.test(id)) continue;
      try {
        conversations.push(await this.read(id));
      } catch (err) {
        if (!isHammerError(err)) throw err;
        skipped.push({ file: join(this.chatsDir, name), message: err.message });
      }
    }
    conversations.sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id));
    return { conversations, skipped };
  }

  /** Write one artifact of a conversation (atomically), in turn with its file's writes. */
  async writeArtifact(id: string, name: string, content: string | Uint8Array): Promise<void> {
    const path = join(this.artifactsDir(id), checkName(name));
    await this.#serialise(id, async () => {
      await refuseLinks([this.dir, this.chatsDir, this.artifactsDir(id)]);
      await writeFileAtomic(path, content, { durable: false }).catch((err: unknown) => unwritable(err, path, null));
    });
  }

  /** One artifact of a conversation (never through a symlink, at most 16 MiB). */
  async readArtifact(id: string, name: string): Promise<Buffer> {
    const path = join(this.artifactsDir(id), checkName(name));
    await refuseSymlinkDirs([this.dir, this.chatsDir, this.artifactsDir(id)]);
    try {
      return await readCapped(path, MAX_ARTIFACT_BYTES);
    } catch (err) {
      if (isHammerError(err)) throw err;
      throw new HammerError('STATE_INVALID', `${path}: cannot read: ${(err as Error).message}`, { cause: err });
    }
  }

  #serialise(id: string, task: () => Promise<void>): Promise<void> {
    const previous = this.#pending.get(id) ?? Promise.resolve();
    const next = previous.then(task);
    const settled = next.catch(() => undefined);
    this.#pending.set(id, settled);
    void settled.then(() => {
      if (this.#pending.get(id) === settled) this.#pending.delete(id);
    });
    return next;
  }
}

/** Validate a conversation file's text; STATE_INVALID names the file and the field that is wrong. */
export function parseConversation(path: string, id: string, text: string): Conversation {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HammerError('STATE_INVALID', `${path}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  const version =
    typeof json === 'object' && json !== null ? (json as Record<string, unknown>)['schema_version'] : undefined;
  if (version !== CONVERSATION_SCHEMA_VERSION)
    throw new HammerError(
      'STATE_INVALID',
      `${path}: schema_version is ${JSON.stringify(version)}, this hammer-box reads ${CONVERSATION_SCHEMA_VERSION}`,
    );
  const parsed = ConversationSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HammerError('STATE_INVALID', `${path}: ${issuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
  }
  if (parsed.data.id !== id)
    throw new HammerError(
      'STATE_INVALID',
      `${path}: id ${JSON.stringify(parsed.data.id)} does not match the file name`,
    );
  return parsed.data;
}

function checkId(id: string): string {
  if (!isRunId(id)) throw new HammerError('INTERNAL', `not a conversation id: ${JSON.stringify(id)}`);
  return id;
}

function checkName(name: string): string {
  if (!ArtifactNameSchema.safeParse(name).success)
    throw new HammerError('INTERNAL', `not an artifact name: ${JSON.stringify(name)}`);
  return name;
}
