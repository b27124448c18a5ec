// Bytes in, complete text lines out: UTF-8 split across chunks, LF, CRLF and lone CR.
import { HammerError } from '../errors.js';

/** Longest line accepted from a model server; a stream chunk is a few hundred bytes. */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

/** Splits a byte stream into lines (terminators removed), whatever the chunk boundaries. */
export class LineDecoder {
  private readonly decoder = new TextDecoder('utf-8');
  private pending = '';
  private skipLf = false;

  /** Feed bytes; returns the lines they completed. */
  push(chunk: Uint8Array): string[] {
    return this.split(this.decoder.decode(chunk, { stream: true }));
  }

  /** The stream ended; returns the last line if it had no terminator. */
  end(): string[] {
    const lines = this.split(this.decoder.decode());
    if (this.pending !== '') lines.push(this.pending);
    this.pending = '';
    return lines;
  }

  private split(text: string): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 && this.skipLf && i === start && this.pending === '') {
        // the LF of a CRLF whose CR ended the previous piece
        start = i + 1;
        this.skipLf = false;
        continue;
      }
      this.skipLf = false;
      if (c !== 10 && c !== 13) continue;
      lines.push(this.pending + text.slice(start, i));
      this.pending = '';
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else {
          this.skipLf = true;
        }
      }
      start = i + 1;
    }
    this.pending += text.slice(start);
    if (this.pending.length > MAX_LINE_CHARS) {
      throw new HammerError('MODEL_ERROR', `the model server sent a line longer than ${MAX_LINE_CHARS} characters`);
    }
    return lines;
  }
}
