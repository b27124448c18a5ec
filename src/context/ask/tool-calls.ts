// The model's requests as provider tools: the definitions offered (the names the system message
// teaches), and the calls a server returned turned into the requests the content parser makes.
import { toolRequest, type AskRequest } from './parse-requests.js';

/** A tool definition as providers take it: a function name, what it does, a JSON schema of its arguments. */
export interface AskTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** The tools the ask loop answers: read a file or lines of it, search for a string. */
export const ASK_TOOLS: readonly AskTool[] = [
  {
    name: 'read_file',
    description:
      'Show a file of the repository, or the given lines of it (1-based, inclusive). Paths are relative to the repository root.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'the file, relative to the repository root' },
        start_line: { type: 'integer', minimum: 1, description: 'first line to show (default: 1)' },
        end_line: { type: 'integer', minimum: 1, description: 'last line to show (default: the end)' },
      },
      required: ['path'],
    },
  },
  {
    name: 'search',
    description:
      'Show the lines of the repository that hold this text exactly (a string or a symbol), as path:line: text.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'the text to find, on one line' } },
      required: ['query'],
    },
  },
];

/** A tool call as a server returned it: `arguments` is JSON text, maybe malformed. */
export interface AskToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One request per call, in order; a call that cannot be read is an `invalid` request saying why. */
export function toolCallRequests(calls: readonly AskToolCall[]): AskRequest[] {
  return calls.map((c) => {
    const call = { id: c.id, name: c.name };
    const invalid = (reason: string): AskRequest => ({ kind: 'invalid', tool: c.name, reason, call });
    let args: unknown;
    try {
      args = c.arguments.trim() === '' ? {} : JSON.parse(c.arguments);
    } catch {
      return invalid(`the arguments of ${c.name || 'the call'} are not JSON; send an object like {"path": "src/a.py"}`);
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return invalid(`the arguments of ${c.name || 'the call'} are not a JSON object`);
    }
    const request = toolRequest(c.name, args as Record<string, unknown>);
    if (request !== null) return { ...request, call };
    const known = ASK_TOOLS.some((t) => t.name === c.name.toLowerCase());
    return invalid(
      known
        ? `${c.name} needs ${c.name.toLowerCase() === 'search' ? 'a one-line "query"' : 'a "path"'} of at most 500 characters`
        : `there is no tool named ${c.name || '(no name)'}; the tools are ${ASK_TOOLS.map((t) => t.name).join(' and ')}`,
    );
  });
}
