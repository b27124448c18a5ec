// The model contract the loop speaks: our types, never undici's.
import type { HammerError } from '../errors.js';

/** A tool call the model made, as the server sent it: `arguments` is the raw JSON text (maybe malformed). */
export interface ToolCall {
  /** The server's id for the call (OpenAI's `tool_call_id`), or one we made up (`call_<index>`). */
  id: string;
  name: string;
  arguments: string;
}

/** A tool offered to the model: a function with a JSON-schema for its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One message of a chat conversation. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  /** An answer; `toolCalls` when it called tools (the next messages answer each call). */
  | { role: 'assistant'; content: string; toolCalls?: readonly ToolCall[] }
  /** The answer to one tool call. */
  | { role: 'tool'; content: string; toolCallId: string; toolName: string };

/** How far a streamed answer has come (reported after every delta). */
export interface GenerateProgress {
  /** Tokens (stream chunks) received so far, thinking included. */
  tokens: number;
  /** Milliseconds since generate() was called. */
  elapsedMs: number;
  /** Generation speed since the first token (0 until there is one). */
  tokensPerSecond: number;
  /** Milliseconds from generate() to the first token, once there is one. */
  firstTokenMs?: number;
}

/** A request for one complete answer. */
export interface GenerateRequest {
  messages: ChatMessage[];
  signal?: AbortSignal;
  /** Called after each delta; `delta` is the answer text it added ('' for thinking-only chunks). */
  onProgress?: (progress: GenerateProgress, delta: string) => void;
  /** Tools to offer; a server that refuses tools is asked again without them (see `toolsRefused`). */
  tools?: readonly ToolSpec[];
}

/** A complete answer. A partial answer is never returned: it is an error. */
export interface GenerateResult {
  text: string;
  model: string;
  promptTokens?: number;
  completionTokens?: number;
  /** Why the model stopped as the server says it ('stop', 'length', ...), when it says. */
  finishReason?: string;
  /** Milliseconds from generate() to the end of the answer, retries included. */
  durationMs: number;
  /** Milliseconds from generate() to the first token (equal to durationMs for an empty answer). */
  firstTokenMs: number;
  /** HTTP attempts made (1 when the first one answered). */
  attempts: number;
  /** The tools the model called, in the order the server numbered them (absent when none). */
  toolCalls?: ToolCall[];
  /** Set when tools were offered and the server refused them: why (the answer came without tools). */
  toolsRefused?: string;
  /**
   * Replay only: the recorded agent trajectory ended after this answer, for this reason (a bound
   * such as wall time that a replay cannot meet the same way), so the replayed one ends there too.
   */
  trajectoryEnd?: string;
}

/** What `doctor` learns about the model server. */
export interface ModelCheck {
  reachable: boolean;
  modelPresent: boolean;
  detail: string;
  /** The models the server lists, when it lists them. */
  models?: string[];
  /**
   * The typed error a run would meet at its first request (MODEL_UNREACHABLE, MODEL_NOT_FOUND): set
   * when the server is down or lists its models without this one, so a run can stop before the
   * sandbox work. Unset when the server answered without a usable listing (the run finds out then).
   */
  error?: HammerError;
}

/** A model server (or a recording) that turns a conversation into an answer. */
export interface ModelProvider {
  readonly name: 'ollama' | 'openai' | 'replay';
  readonly model: string;
  /** Stream one answer to completion; throws a HammerError (MODEL_*, ABORTED) when there is none. */
  generate(req: GenerateRequest): Promise<GenerateResult>;
  /** Is the server reachable and does it have the model? Never throws except when aborted. */
  check(opts?: { signal?: AbortSignal }): Promise<ModelCheck>;
  /** Release the connections this provider opened (a no-op for a dispatcher passed in). */
  close(): Promise<void>;
}
