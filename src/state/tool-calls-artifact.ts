// The tool calls of an answer that asked with them, as an artifact beside its text: replay plays both back.
import { z } from 'zod';
import { HammerError } from '../errors.js';

/** One recorded tool call: the server's id, the tool's name, its arguments as the JSON text sent. */
export const RecordedToolCallSchema = z.strictObject({
  id: z.string().max(200),
  name: z.string().max(200),
  arguments: z.string().max(64 * 1024),
});
export type RecordedToolCall = z.infer<typeof RecordedToolCallSchema>;

const ToolCallsArtifactSchema = z.array(RecordedToolCallSchema).max(32);

/** The artifact's text for these calls. */
export function renderToolCallsArtifact(calls: readonly RecordedToolCall[]): string {
  return `${JSON.stringify(
    calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
    null,
    2,
  )}\n`;
}

/** The calls an artifact holds; STATE_INVALID when it is not one we wrote. */
export function parseToolCallsArtifact(text: string, where: string): RecordedToolCall[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = ToolCallsArtifactSchema.safeParse(json);
  if (!parsed.success) throw new HammerError('STATE_INVALID', `${where}: not a list of recorded tool calls`);
  return parsed.data;
}
