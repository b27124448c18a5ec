// A chat or plan conversation, `.hammer/chats/<id>.json`: the messages the model has seen, each
// exchange with the person (their message, the tool calls, the answer, the work tree's change after
// it), sealed like a run state and validated with zod whenever it is read. Bounded in size.
import { z } from 'zod';
import { MAX_TOOL_ARGUMENT_CHARS } from '../llm/tool-calls.js';
import { AgentStepSchema, ArtifactNameSchema, TestRecordSchema, TRAJECTORY_ENDS } from './run-state.js';

/** The schema version written into every conversation file; a reader refuses any other. */
export const CONVERSATION_SCHEMA_VERSION = 1;

/** A conversation started by `hammer-box chat`, or by `hammer-box plan` (read-only, ends in plan.md). */
export const CONVERSATION_KINDS = ['chat', 'plan'] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];

/** code: the model may edit; plan: read-only (edits refused, commands' changes to the files undone). */
export const CHAT_MODES = ['code', 'plan'] as const;
export type ChatMode = (typeof CHAT_MODES)[number];

/** How one answer ended: in words, stopped by the person, broken, or at one of a trajectory's ends. */
export const ANSWER_ENDS = ['answered', 'interrupted', 'error', ...TRAJECTORY_ENDS] as const;
export type AnswerEnd = (typeof ANSWER_ENDS)[number];

/** The most exchanges a conversation keeps (then `/new` starts another). */
export const MAX_EXCHANGES = 200;
/** The most characters of a person's message. */
export const MAX_USER_CHARS = 64 * 1024;
/** The most characters of one stored message (longer ones are cut in the middle). */
export const MAX_MESSAGE_CHARS = 256 * 1024;
/** The most messages kept (the model's side of the conversation). */
export const MAX_MESSAGES = 20_000;
/** The most steps of one exchange recorded. */
export const MAX_EXCHANGE_STEPS = 400;
/** The most /run and /branch hand-offs recorded. */
export const MAX_HANDOFFS = 100;

const timestamp = z.iso.datetime({ offset: true });
const count = z.number().int().min(0);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'not a sha256 hex digest');
const content = z.string().max(MAX_MESSAGE_CHARS + 200);

/** A native tool call as the model made it. */
const ToolCallSchema = z.strictObject({
  id: z.string().max(256),
  name: z.string().max(256),
  arguments: z.string().max(MAX_TOOL_ARGUMENT_CHARS + 16),
});

/** One message of the model's conversation (snake_case: the file's convention). */
export const StoredMessageSchema = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content }),
  z.strictObject({ role: z.literal('user'), content }),
  z.strictObject({ role: z.literal('assistant'), content, tool_calls: z.array(ToolCallSchema).max(32).optional() }),
  z.strictObject({
    role: z.literal('tool'),
    content,
    tool_call_id: z.string().max(256),
    tool_name: z.string().max(256),
  }),
]);
export type StoredMessage = z.infer<typeof StoredMessageSchema>;

/**
 * The work tree's change against the base after an exchange: its files and size, and the diff kept
 * as an artifact with its sha256 (what resuming and /undo put back, checked against this hash). A
 * change over `policy.max_patch_bytes` is recorded by its size only and cannot be put back.
 */
export const ChangeRecordSchema = z.strictObject({
  bytes: count,
  files: z.array(z.string().max(4096)).max(1000),
  artifact: ArtifactNameSchema.optional(),
  sha256: sha256.optional(),
});
export type ChangeRecord = z.infer<typeof ChangeRecordSchema>;

/** One exchange: the person's message and everything the model did to answer it. */
export const ExchangeSchema = z.strictObject({
  n: z.number().int().min(1),
  started_at: timestamp,
  mode: z.enum(CHAT_MODES),
  /** How many of the conversation's messages came before this exchange's (an undo cuts them back there). */
  messages_at: count,
  user: z.string().max(MAX_USER_CHARS + 200),
  /** The model's words at the end ('' when it ended without any). */
  answer: content,
  turns: count,
  steps: z.array(AgentStepSchema).max(MAX_EXCHANGE_STEPS),
  prompt_tokens: count,
  completion_tokens: count,
  duration_ms: z.number().min(0),
  end: z.strictObject({ reason: z.enum(ANSWER_ENDS), detail: z.string().max(500) }),
  /** The work tree's change against the base after it; null: none. */
  change: ChangeRecordSchema.nullable(),
});
export type Exchange = z.infer<typeof ExchangeSchema>;

/** A run the conversation handed its work to: `/run` (a directive) or `/branch` (its change). */
export const HandoffSchema = z.strictObject({
  kind: z.enum(['run', 'branch']),
  at: timestamp,
  run_id: z.string().max(64),
  status: z.string().max(32).nullable(),
  branch: z.string().max(1024).nullable(),
});
export type Handoff = z.infer<typeof HandoffSchema>;

/** The whole conversation file. */
export const ConversationSchema = z.strictObject({
  schema_version: z.literal(CONVERSATION_SCHEMA_VERSION),
  id: z.string(),
  kind: z.enum(CONVERSATION_KINDS),
  created_at: timestamp,
  updated_at: timestamp,
  repo: z.strictObject({ path: z.string(), base_ref: z.string(), base_commit: z.string(), base_tree: z.string() }),
  model: z.strictObject({ provider: z.string(), name: z.string(), url: z.string() }),
  /** The image the sandbox ran (a resumed conversation uses it again while it is there). */
  image: z.strictObject({ ref: z.string(), id: z.string() }).nullable(),
  test_command: z.string(),
  mode: z.enum(CHAT_MODES),
  /** plan: the goal it was asked for. */
  goal: z
    .string()
    .max(MAX_USER_CHARS + 200)
    .optional(),
  messages: z.array(StoredMessageSchema).max(MAX_MESSAGES),
  exchanges: z.array(ExchangeSchema).max(MAX_EXCHANGES),
  /** The last `/test` (its failing tests run first next time). */
  last_test: TestRecordSchema.nullable(),
  handoffs: z.array(HandoffSchema).max(MAX_HANDOFFS),
  /** The readable transcript, beside the file (transcript.md). */
  transcript: ArtifactNameSchema,
  owner: z.strictObject({ pid: z.number().int().positive(), host: z.string() }).optional(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

/** The artifact names of a conversation. */
export const conversationArtifacts = {
  transcript: (): string => 'transcript.md',
  change: (n: number): string => `exchange-${String(n).padStart(2, '0')}.patch`,
} as const;
