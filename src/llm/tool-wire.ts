// Tools on the wire: the `tools` a request offers, the messages that carry calls and their answers
// in each API's shape, and how a server says it does not do tool calling.
import type { ChatMessage, ToolSpec } from './types.js';

/** The `tools` array both APIs take. */
export function toolsField(tools: readonly ToolSpec[]): unknown[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

/** A message as Ollama's /api/chat takes it: call arguments as objects, a tool answer named by `tool_name`. */
export function ollamaMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', content: m.content, tool_name: m.toolName };
  if (m.role === 'assistant' && m.toolCalls !== undefined && m.toolCalls.length > 0) {
    return {
      role: 'assistant',
      content: m.content,
      tool_calls: m.toolCalls.map((c) => ({ function: { name: c.name, arguments: argumentsObject(c.arguments) } })),
    };
  }
  return { role: m.role, content: m.content };
}

/** A message as /v1/chat/completions takes it: call arguments as JSON text, a tool answer by `tool_call_id`. */
export function openAIMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if (m.role === 'assistant' && m.toolCalls !== undefined && m.toolCalls.length > 0) {
    return {
      role: 'assistant',
      content: m.content === '' ? null : m.content,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
  return { role: m.role, content: m.content };
}

/**
 * Why a server refused the tools a request offered, from a failed answer's status and body (null
 * when the failure is about something else): Ollama says "<model> does not support tools"; OpenAI-
 * compatible servers answer 400/422 naming tools (vLLM's tool-choice flags, llama.cpp's --jinja).
 */
export function toolsRefusal(status: number, body: string): string | null {
  if (status !== 400 && status !== 422 && status !== 501) return null;
  if (!/\btools?\b|tool_choice|function.?call/i.test(body)) return null;
  const text = body.replace(/\s+/g, ' ').trim();
  return `HTTP ${status}: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
}

/** Arguments as an object for Ollama (JSON text that is not an object becomes `{}`). */
function argumentsObject(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
