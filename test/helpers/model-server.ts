// A real HTTP server on 127.0.0.1 that speaks Ollama's and the OpenAI-compatible wire formats with
// scripted answers, and records every request so tests can assert what the model was shown.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { z } from 'zod';

/** What the server does for one chat request. */
export type Script =
  /**
   * Stream `answer` in pieces of `chunkSize` characters (default 4), `delayMs` apart (default 0),
   * the first after `firstTokenMs` (default 0: a model reading its prompt first), then end with
   * `doneReason` (default "stop"; null: end without any, as some servers and proxies do).
   */
  | { answer: string; chunkSize?: number; delayMs?: number; firstTokenMs?: number; doneReason?: string | null }
  /** Answer with this status and JSON body (a string body is sent as is), and any extra headers. */
  | { status: number; body: unknown; headers?: Record<string, string> }
  /** Stream `errorAfter`, then an error chunk saying `error`, then end. */
  | { errorAfter: string; error: string }
  /** Never answer (not even headers) until the client goes away or the server closes. */
  | { hang: true }
  /** Send headers, then one character of `dribble` every `intervalMs`. */
  | { dribble: string; intervalMs: number }
  /** Answer 200 with this raw text as the body. */
  | { garbage: string }
  /**
   * Call tools, after `content` if any: Ollama gets each call whole in one chunk (arguments an
   * object); OpenAI gets id and name first, then the arguments' JSON text in `fragment`-character
   * pieces (default 5), the calls' pieces interleaved by index across events, then finish_reason
   * "tool_calls". A string `arguments` is sent as is (to script malformed JSON on the OpenAI wire).
   */
  | { toolCalls: ScriptedToolCall[]; content?: string; fragment?: number };

/** One scripted tool call. */
export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
}

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body parsed as JSON, or undefined when it was empty or not JSON. */
  body: unknown;
}

/** A running scripted model server. */
export interface ModelServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  /** Chat requests only (those that consumed or would have consumed a script entry). */
  chatRequests(): RecordedRequest[];
  /** Add script entries at the end. */
  enqueue(...entries: Script[]): void;
  /** TCP connections currently open to the server (to check that clients release theirs). */
  connections(): number;
  close(): Promise<void>;
}

/** The model every server knows unless told otherwise. */
export const DEFAULT_TEST_MODEL = 'test-model';

type Wire = 'ollama' | 'openai';

/** The parts of a chat request body the server looks at. */
const ChatBodySchema = z.object({
  model: z.string().optional(),
  messages: z.array(z.object({ content: z.unknown() })).optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
});
type ChatBody = z.output<typeof ChatBodySchema>;

/**
 * Picks the answer to a chat request from its prompt (every message's text, joined) before the
 * script queue is asked: for concurrent runs, whose requests arrive in no fixed order.
 */
export type ScriptRoute = (prompt: string) => Script | undefined;

/** Start a scripted model server on 127.0.0.1 and an ephemeral port. */
export async function startModelServer(opts: {
  models?: string[];
  script: Script[];
  route?: ScriptRoute;
}): Promise<ModelServer> {
  const models = opts.models ?? [DEFAULT_TEST_MODEL];
  const script = [...opts.script];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const known = (name: unknown): name is string =>
    typeof name === 'string' && models.some((m) => withTag(m) === withTag(name));

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: { ...req.headers }, body });
    const chat: ChatBody = ChatBodySchema.safeParse(body).data ?? {};
    const model = chat.model;

    if (req.method === 'GET' && path === '/api/tags') {
      return json(res, 200, {
        models: models.map((m) => ({
          name: withTag(m),
          model: withTag(m),
          modified_at: new Date(0).toISOString(),
          size: 1,
          digest: 'sha256:0',
        })),
      });
    }
    if (req.method === 'POST' && path === '/api/show') {
      if (!known(model)) return json(res, 404, { error: `model '${String(model)}' not found` });
      return json(res, 200, {
        modelfile: '',
        parameters: '',
        template: '{{ .Prompt }}',
        details: { family: 'test', parameter_size: '1B' },
        model_info: {},
      });
    }
    if (req.method === 'GET' && path === '/v1/models') {
      return json(res, 200, {
        object: 'list',
        data: models.map((m) => ({ id: m, object: 'model', created: 0, owned_by: 'test' })),
      });
    }
    const wire: Wire | undefined =
      req.method === 'POST' && path === '/api/chat'
        ? 'ollama'
        : req.method === 'POST' && path === '/v1/chat/completions'
          ? 'openai'
          : undefined;
    if (!wire) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found');
      return;
    }
    if (!known(model)) {
      if (wire === 'ollama')
        return json(res, 404, { error: `model "${String(model)}" not found, try pulling it first` });
      return json(res, 404, {
        error: {
          message: `The model \`${String(model)}\` does not exist.`,
          type: 'invalid_request_error',
          param: 'model',
          code: 'model_not_found',
        },
      });
    }
    const entry = opts.route?.(promptOf(body)) ?? script.shift();
    if (!entry) return json(res, 500, { error: 'the scripted model server has no more answers' });
    serveScript(wire, entry, model, chat, res, later);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    chatRequests: () => requests.filter((r) => r.path === '/api/chat' || r.path === '/v1/chat/completions'),
    enqueue: (...entries) => script.push(...entries),
    connections: () => sockets.size,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

function serveScript(
  wire: Wire,
  entry: Script,
  model: string,
  body: ChatBody,
  res: ServerResponse,
  later: (ms: number, fn: () => void) => void,
): void {
  if ('hang' in entry) return; // the socket stays open until the client leaves or close() destroys it
  if ('status' in entry) {
    res.writeHead(entry.status, {
      'content-type': typeof entry.body === 'string' ? 'text/plain' : 'application/json',
      ...entry.headers,
    });
    res.end(typeof entry.body === 'string' ? entry.body : JSON.stringify(entry.body));
    return;
  }
  const f = new Framer(wire, model, includeUsage(body));
  res.writeHead(200, {
    'content-type': wire === 'ollama' ? 'application/x-ndjson' : 'text/event-stream',
    'cache-control': 'no-cache',
  });
  if ('garbage' in entry) {
    res.end(entry.garbage);
    return;
  }
  const write = (s: string): void => {
    if (!res.destroyed) res.write(s);
  };
  if ('toolCalls' in entry) {
    write(f.start());
    if (entry.content) write(f.delta(entry.content));
    for (const piece of f.toolCalls(entry.toolCalls, entry.fragment ?? 5)) write(piece);
    write(f.final(wire === 'ollama' ? 'stop' : 'tool_calls', promptTokens(body), entry.toolCalls.length));
    res.end();
    return;
  }
  let pieces: string[];
  let gap: number;
  let finish: () => void;
  if ('answer' in entry) {
    pieces = split(entry.answer, entry.chunkSize ?? 4);
    gap = entry.delayMs ?? 0;
    finish = () => {
      write(f.final(entry.doneReason === undefined ? 'stop' : entry.doneReason, promptTokens(body), pieces.length));
      res.end();
    };
  } else if ('errorAfter' in entry) {
    pieces = split(entry.errorAfter, 4);
    gap = 0;
    finish = () => {
      write(f.error(entry.error));
      res.end();
    };
  } else {
    pieces = Array.from(entry.dribble);
    gap = entry.intervalMs;
    finish = () => {
      write(f.final('stop', promptTokens(body), pieces.length));
      res.end();
    };
  }
  write(f.start());
  let i = 0;
  const step = (): void => {
    if (res.destroyed) return;
    if (i >= pieces.length) return finish();
    write(f.delta(pieces[i++] ?? ''));
    if (gap > 0) later(gap, step);
    else setImmediate(step);
  };
  const first = 'answer' in entry ? (entry.firstTokenMs ?? 0) : 0;
  if (first > 0) later(first, step);
  else step();
}

/** Frames answer pieces in one wire format with the field names the real servers use. */
class Framer {
  private readonly created = Math.floor(Date.now() / 1000);
  constructor(
    private readonly wire: Wire,
    private readonly model: string,
    private readonly usage: boolean,
  ) {}

  start(): string {
    if (this.wire === 'ollama') return '';
    return this.sse({
      ...this.head(),
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
    });
  }

  delta(content: string): string {
    if (this.wire === 'ollama') {
      return `${JSON.stringify({ model: this.model, created_at: new Date().toISOString(), message: { role: 'assistant', content }, done: false })}\n`;
    }
    return this.sse({
      ...this.head(),
      choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
    });
  }

  final(reason: string | null, prompt: number, completion: number): string {
    if (this.wire === 'ollama') {
      return `${JSON.stringify({
        model: this.model,
        created_at: new Date().toISOString(),
        message: { role: 'assistant', content: '' },
        done: true,
        ...(reason === null ? {} : { done_reason: reason }),
        total_duration: 1_000_000,
        load_duration: 1000,
        prompt_eval_count: prompt,
        prompt_eval_duration: 1000,
        eval_count: completion,
        eval_duration: 1000,
      })}\n`;
    }
    let out = this.sse({ ...this.head(), choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: reason }] });
    if (this.usage) {
      out += this.sse({
        ...this.head(),
        choices: [],
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
      });
    }
    return `${out}data: [DONE]\n\n`;
  }

  /** The chunks (Ollama) or events (OpenAI) that carry these calls. */
  toolCalls(calls: ScriptedToolCall[], fragment: number): string[] {
    const text = (a: ScriptedToolCall['arguments']): string => (typeof a === 'string' ? a : JSON.stringify(a));
    if (this.wire === 'ollama') {
      return calls.map(
        (c) =>
          `${JSON.stringify({
            model: this.model,
            created_at: new Date().toISOString(),
            message: {
              role: 'assistant',
              content: '',
              tool_calls: [
                { function: { name: c.name, arguments: typeof c.arguments === 'string' ? {} : c.arguments } },
              ],
            },
            done: false,
          })}\n`,
      );
    }
    const event = (tc: Record<string, unknown>): string =>
      this.sse({
        ...this.head(),
        choices: [{ index: 0, delta: { tool_calls: [tc] }, logprobs: null, finish_reason: null }],
      });
    const out = calls.map((c, index) =>
      event({ index, id: `call_test_${index}`, type: 'function', function: { name: c.name, arguments: '' } }),
    );
    const pieces = calls.map((c) => split(text(c.arguments), fragment));
    for (let k = 0; pieces.some((p) => k < p.length); k++) {
      pieces.forEach((p, index) => {
        if (k < p.length) out.push(event({ index, function: { arguments: p[k] } }));
      });
    }
    return out;
  }

  error(message: string): string {
    if (this.wire === 'ollama') return `${JSON.stringify({ error: message })}\n`;
    return this.sse({ error: { message, type: 'server_error', param: null, code: null } });
  }

  private head(): Record<string, unknown> {
    return {
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      system_fingerprint: 'test',
    };
  }

  private sse(obj: unknown): string {
    return `data: ${JSON.stringify(obj)}\n\n`;
  }
}

function split(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += Math.max(1, size)) out.push(chars.slice(i, i + Math.max(1, size)).join(''));
  return out;
}

function promptTokens(body: ChatBody): number {
  const chars = (body.messages ?? []).reduce(
    (n, m) => n + (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')).length,
    0,
  );
  return Math.ceil(chars / 4);
}

function includeUsage(body: ChatBody): boolean {
  return body.stream_options?.include_usage === true;
}

function withTag(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1).includes(':') ? name : `${name}:latest`;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** One turn of a scripted agent trajectory: a shell command, an editor call, or submit. */
export type AgentTurnScript =
  { bash: string } | { edit: Record<string, unknown> & { command: string; path: string } } | { submit: true };

/**
 * How a scripted agent calls its tools: `native` tool calls on the wire (Ollama's whole calls, or
 * OpenAI's streamed fragments), qwen3-coder's XML written in the text without `<tool_call>` (as
 * Ollama leaks it), or a fenced ```bash block (shell commands only; other tools fall back to XML).
 */
export type AgentCallForm = 'native' | 'xml' | 'fenced';

/** Script entries for a trajectory: one answer per turn, each making that turn's call in `form`. */
export function trajectoryScript(turns: readonly AgentTurnScript[], form: AgentCallForm): Script[] {
  return turns.map((t) => {
    const [name, args] = 'bash' in t ? ['bash', { command: t.bash }] : 'edit' in t ? ['edit', t.edit] : ['submit', {}];
    if (form === 'native') return { toolCalls: [{ name, arguments: args }] };
    if (form === 'fenced' && 'bash' in t) return { answer: `I'll run this:\n\n\`\`\`bash\n${t.bash}\n\`\`\`\n` };
    const params = Object.entries(args)
      .map(([k, v]) => `<parameter=${k}>\n${typeof v === 'string' ? v : JSON.stringify(v)}\n</parameter>\n`)
      .join('');
    return { answer: `Next step.\n\n<function=${name}>\n${params}</function>\n` };
  });
}

/** Every message's text of a chat request body, joined. */
function promptOf(body: unknown): string {
  const messages = ChatBodySchema.safeParse(body).data?.messages ?? [];
  return messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))).join('\n');
}
