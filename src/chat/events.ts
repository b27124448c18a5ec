// What a conversation reports while the model works, for the terminal. Texts that came from the
// model or the sandbox are untrusted: the renderer sanitises them.
import type { AgentToolName } from '../agent/types.js';

/** One event of an answer in progress. */
export type ChatEvent =
  /** The model is working: tokens streamed so far (thinking included), since the request. */
  | { type: 'thinking'; tokens: number; elapsedMs: number }
  /** Words of the answer as they arrive (untrusted). */
  | { type: 'text'; delta: string }
  /** A model answer is complete: its tokens as the server counted them, and what it held. */
  | {
      type: 'turn';
      k: number;
      promptTokens?: number;
      completionTokens?: number;
      durationMs: number;
      parsed: 'actions' | 'malformed' | 'none';
    }
  /** A tool call starts (its one-line form, untrusted). */
  | { type: 'step_started'; tool: AgentToolName; line: string }
  /** A tool call ran: its outcome and what the model was shown (untrusted). */
  | {
      type: 'step';
      tool: AgentToolName;
      line: string;
      outcome: 'ok' | 'failed' | 'refused';
      exitCode?: number;
      durationMs: number;
      observation: string;
      /** An edit that changed a file: the change as a diff (untrusted). */
      diff?: string;
    }
  /** The stuck detector nudged the model. */
  | { type: 'nudge'; pattern: string }
  | { type: 'notice'; level: 'info' | 'warning'; text: string };

/** Receives a conversation's events; must not throw. */
export type ChatEmitter = (event: ChatEvent) => void;
