// Tool calls streamed in pieces, put together: fragments concatenated per index, in index order.
import type { ToolCall } from './types.js';
import type { WireEvent } from './wire-events.js';

/** The most tool calls kept from one answer (the rest are dropped). */
export const MAX_TOOL_CALLS = 32;
/** The most characters of one call's arguments kept (more is cut, and then is not JSON). */
export const MAX_TOOL_ARGUMENT_CHARS = 64 * 1024;

/** Collects `tool_call` wire events into whole calls. */
export class ToolCallAssembler {
  private readonly calls = new Map<number, { id?: string; name: string; arguments: string }>();

  /** Add one piece. */
  push(ev: Extract<WireEvent, { type: 'tool_call' }>): void {
    let call = this.calls.get(ev.index);
    if (call === undefined) {
      if (this.calls.size >= MAX_TOOL_CALLS) return;
      call = { name: '', arguments: '' };
      this.calls.set(ev.index, call);
    }
    if (ev.id !== undefined && ev.id !== '') call.id ??= ev.id;
    if (ev.name !== undefined) call.name += call.name === ev.name ? '' : ev.name;
    if (ev.arguments !== undefined && call.arguments.length < MAX_TOOL_ARGUMENT_CHARS) {
      call.arguments = (call.arguments + ev.arguments).slice(0, MAX_TOOL_ARGUMENT_CHARS);
    }
  }

  /** The calls so far, by index; a call without an id gets `call_<index>`. */
  result(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({ id: c.id ?? `call_${index}`, name: c.name, arguments: c.arguments }));
  }
}
