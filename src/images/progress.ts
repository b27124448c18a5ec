// The engine's NDJSON progress stream (build and pull), parsed line by line with zod into events,
// with a bounded tail kept for error messages.
import { z } from 'zod';

const progressLineSchema = z.object({
  stream: z.string().optional(),
  status: z.string().optional(),
  progress: z.string().optional(),
  id: z.string().optional(),
  error: z.string().optional(),
  errorDetail: z.object({ message: z.string().optional(), code: z.number().optional() }).optional(),
  aux: z.object({ ID: z.string().optional() }).optional(),
});

/** One parsed progress message. */
export type ProgressEvent =
  { kind: 'text'; text: string } | { kind: 'error'; message: string } | { kind: 'aux'; id: string };

/** Parse one NDJSON line from the engine; unknown or malformed lines become plain text. */
export function parseProgressLine(line: string): ProgressEvent[] {
  const trimmed = line.trim();
  if (trimmed === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return [{ kind: 'text', text: trimmed }];
  }
  const parsed = progressLineSchema.safeParse(json);
  if (!parsed.success) return [{ kind: 'text', text: trimmed }];
  const msg = parsed.data;
  if (msg.errorDetail !== undefined || msg.error !== undefined) {
    return [{ kind: 'error', message: msg.errorDetail?.message ?? msg.error ?? 'unknown error' }];
  }
  const events: ProgressEvent[] = [];
  if (msg.aux?.ID !== undefined) events.push({ kind: 'aux', id: msg.aux.ID });
  if (msg.stream !== undefined) {
    for (const text of msg.stream.split(/\r?\n/))
      if (text.trim() !== '') events.push({ kind: 'text', text: text.trimEnd() });
  }
  if (msg.status !== undefined) {
    const parts = [msg.id, msg.status, msg.progress].filter((p) => p !== undefined && p !== '');
    events.push({ kind: 'text', text: parts.join(' ') });
  }
  return events;
}

/** What a finished progress stream said. */
export interface ProgressSummary {
  /** The engine's error message, if the operation failed. */
  error: string | undefined;
  /** The image id an `aux` message reported, if any. */
  auxId: string | undefined;
  /** The last lines of text (at most `tailLines`). */
  tail: string[];
}

/** Accumulates NDJSON chunks into whole lines, events and a bounded tail. */
export class ProgressReader {
  private buffered = '';
  private readonly tail: string[] = [];
  private error: string | undefined;
  private auxId: string | undefined;

  constructor(
    private readonly onLine: (line: string) => void = () => {},
    private readonly tailLines = 30,
  ) {}

  /** Feed a chunk of the stream. */
  push(chunk: Buffer | string): void {
    this.buffered += chunk.toString();
    let nl = this.buffered.indexOf('\n');
    while (nl >= 0) {
      this.handle(this.buffered.slice(0, nl));
      this.buffered = this.buffered.slice(nl + 1);
      nl = this.buffered.indexOf('\n');
    }
  }

  /** Flush a final unterminated line and return the summary. */
  end(): ProgressSummary {
    if (this.buffered !== '') this.handle(this.buffered);
    this.buffered = '';
    return { error: this.error, auxId: this.auxId, tail: [...this.tail] };
  }

  private handle(line: string): void {
    for (const event of parseProgressLine(line)) {
      if (event.kind === 'aux') this.auxId = event.id;
      else if (event.kind === 'error') {
        this.error = event.message;
        this.keep(`error: ${event.message}`);
      } else this.keep(event.text);
    }
  }

  private keep(text: string): void {
    this.tail.push(text);
    if (this.tail.length > this.tailLines) this.tail.shift();
    this.onLine(text);
  }
}

/** Drain an engine progress stream through a ProgressReader; resolves when the stream ends. */
export async function readProgress(
  stream: NodeJS.ReadableStream,
  onLine?: (line: string) => void,
  tailLines?: number,
): Promise<ProgressSummary> {
  const reader = new ProgressReader(onLine, tailLines);
  for await (const chunk of stream) reader.push(chunk);
  return reader.end();
}
