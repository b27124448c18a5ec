// Agent mode's vocabulary: one tool call normalised to an action, and one model turn parsed.
import type { ToolCall } from '../llm/types.js';

export type { ToolCall };

/** One tool call, normalised. Paths are as the model wrote them (the loop resolves them). */
export type AgentAction =
  | { tool: 'bash'; command: string }
  | { tool: 'edit'; command: 'view'; path: string; viewRange?: [number, number] }
  | { tool: 'edit'; command: 'create'; path: string; fileText: string }
  | { tool: 'edit'; command: 'str_replace'; path: string; oldStr: string; newStr: string }
  | { tool: 'edit'; command: 'insert'; path: string; insertLine: number; newStr: string }
  | { tool: 'edit'; command: 'undo_edit'; path: string }
  | { tool: 'submit' };

/** An editor call. */
export type EditAction = Extract<AgentAction, { tool: 'edit' }>;

/** The editor's commands, in the order the schema lists them. */
export type EditCommand = EditAction['command'];

/** The three tools' canonical names. */
export type AgentToolName = AgentAction['tool'];

/** How the call reached us (as the run records it). */
export type CallShape = 'native' | 'qwen-xml' | 'fenced' | 'json';

/**
 * The format a call came in, finer than its shape: the examples a model is shown are written in
 * it. `json`: a call object in a fence or bare (Llama 3's); `hermes`: in `<tool_call>` tags.
 */
export type CallFormat =
  | 'native'
  | 'qwen-xml'
  | 'fenced'
  | 'json'
  | 'hermes'
  | 'mistral'
  | 'harmony'
  | 'deepseek'
  | 'llama'
  | 'functionary'
  | 'granite'
  | 'firefunction'
  | 'command-r';

/** Every call format. */
export const CALL_FORMATS: readonly CallFormat[] = [
  'native',
  'qwen-xml',
  'fenced',
  'json',
  'hermes',
  'mistral',
  'harmony',
  'deepseek',
  'llama',
  'functionary',
  'granite',
  'firefunction',
  'command-r',
];

/** The shape the run records for a call of this format. */
export function shapeOf(format: CallFormat): CallShape {
  return format === 'native' || format === 'qwen-xml' || format === 'fenced' ? format : 'json';
}

/** One call of a turn, ready to run. */
export interface TurnAction {
  action: AgentAction;
  shape: CallShape;
  /** The native call's id (the tool message answers it); absent for calls written in the text. */
  callId?: string;
}

/** One model turn, parsed. */
export type ParsedTurn =
  /** One or more calls, in order; callId is the native call's id (tool messages answer it). */
  | { kind: 'actions'; thought: string; actions: TurnAction[] }
  /**
   * A call was attempted but cannot be used: `reason` is the observation text sent back (what was
   * wrong, the right shape). `cut`: the answer was cut off (the server said so, or the text ends
   * inside a call), so none of its calls ran.
   */
  | { kind: 'malformed'; thought: string; reason: string; callId?: string; cut?: 'server' | 'text' }
  /** Talk without any call; `near`: the call format the answer came closest to, when it shows one. */
  | { kind: 'none'; thought: string; near?: CallFormat };
