// A small GET for the check endpoints (/api/tags, /v1/models), bounded in time and size.
import { request } from 'undici';
import type { Dispatcher } from 'undici';
import { abortError } from '../errors.js';

const BODY_CAP = 4 * 1024 * 1024;

/** The outcome of a GET: an answer with its status and parsed JSON (undefined if not JSON), or a network error. */
export type GetJsonResult =
  { ok: true; status: number; json: unknown; text: string } | { ok: false; error: unknown; timedOut: boolean };

/** GET `url` and parse the body as JSON. Throws only when `signal` fires. */
export async function getJson(
  url: string,
  opts: { dispatcher: Dispatcher; headers?: Record<string, string>; signal?: AbortSignal; timeoutMs: number },
): Promise<GetJsonResult> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let body: Dispatcher.ResponseData['body'] | undefined;
  try {
    const res = await request(url, { method: 'GET', headers: opts.headers, dispatcher: opts.dispatcher, signal });
    body = res.body;
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      const buf = chunk as Buffer;
      parts.push(buf);
      size += buf.length;
      if (size > BODY_CAP) break;
    }
    const text = Buffer.concat(parts).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { ok: true, status: res.statusCode, json, text };
  } catch (error) {
    if (opts.signal?.aborted) throw abortError(opts.signal, 'the model server check');
    return { ok: false, error, timedOut: timeout.aborted };
  } finally {
    if (body && !body.destroyed) body.destroy();
  }
}
