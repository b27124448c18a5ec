// The Ollama provider: streamed /api/chat, /api/tags for check().
import type { ModelConfig } from '../config/schema.js';
import { HammerError } from '../errors.js';
import { unreachableCheck } from './check-result.js';
import type { ServerInfo } from './describe-failure.js';
import { generateStreamed } from './generate.js';
import { getJson } from './get-json.js';
import { sameModel, servedModels, withServedModels } from './model-names.js';
import { OllamaErrorSchema, OllamaStreamParser, OllamaTagsSchema } from './ollama-wire.js';
import { preview } from './preview.js';
import { type ProviderDeps, resolveDispatcher, resolveTiming } from './provider-deps.js';
import { checkTimeoutMs, timeoutsOf } from './server-info.js';
import { ollamaMessage, toolsField, toolsRefusal } from './tool-wire.js';
import type { ChatMessage, ModelProvider, ToolSpec } from './types.js';
import { trimBase } from './urls.js';

const LABEL = 'Ollama';
const UNREACHABLE_HINT = 'is Ollama running? start it with: ollama serve';

/** A provider that talks to an Ollama server. */
export function createOllamaProvider(cfg: ModelConfig, deps: ProviderDeps = {}): ModelProvider {
  const base = trimBase(cfg.url);
  const model = cfg.name;
  const { dispatcher, close } = resolveDispatcher(deps.dispatcher, cfg.connect_timeout);
  const timing = resolveTiming(deps.timing);
  let toolsOff = cfg.tools === 'off';
  const offered = (tools: readonly ToolSpec[] | undefined) =>
    toolsOff || tools === undefined || tools.length === 0 ? undefined : tools;
  const server: ServerInfo = {
    label: LABEL,
    model,
    url: base,
    unreachableHint: UNREACHABLE_HINT,
    timeouts: timeoutsOf(cfg),
    httpError: (status, body) => ollamaHttpError(status, body, model, base),
  };

  return {
    name: 'ollama',
    model,
    generate: async (req) => {
      const listing = async (): Promise<string[] | null> => {
        const tags = await getJson(`${base}/api/tags`, {
          dispatcher,
          signal: req.signal,
          timeoutMs: checkTimeoutMs(cfg),
        });
        const parsed = tags.ok ? OllamaTagsSchema.safeParse(tags.json) : null;
        return parsed?.success ? (parsed.data.models ?? []).map((m) => m.name) : null;
      };
      const result = await withServedModels(
        generateStreamed(
          {
            server,
            chatUrl: `${base}/api/chat`,
            headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
            body: JSON.stringify(ollamaChatBody(cfg, req.messages, offered(req.tools))),
            ...(offered(req.tools) === undefined
              ? {}
              : { withoutTools: { body: JSON.stringify(ollamaChatBody(cfg, req.messages)), refused: toolsRefusal } }),
            createParser: () => new OllamaStreamParser(),
            retries: cfg.retries,
          },
          req,
          { dispatcher, timing, logger: deps.logger },
        ),
        listing,
      );
      // a server that refused tools once is not offered them again
      if (result.toolsRefused !== undefined) toolsOff = true;
      return result;
    },
    check: async (opts = {}) => {
      const res = await getJson(`${base}/api/tags`, {
        dispatcher,
        signal: opts.signal,
        timeoutMs: checkTimeoutMs(cfg),
      });
      if (!res.ok) return unreachableCheck(server, res.error, res.timedOut);
      const tags = OllamaTagsSchema.safeParse(res.json);
      if (res.status !== 200 || !tags.success) {
        return {
          reachable: true,
          modelPresent: false,
          detail: `${base} answered HTTP ${res.status} to /api/tags, not like Ollama: ${preview(res.text)}`,
        };
      }
      const models = (tags.data.models ?? []).map((m) => m.name);
      const present = models.some((m) => sameModel(m, model));
      return {
        reachable: true,
        modelPresent: present,
        models,
        detail: present
          ? `Ollama at ${base} has ${model}`
          : `Ollama at ${base} does not have ${model}; pull it with: ollama pull ${model}`,
        ...(present
          ? {}
          : {
              error: new HammerError(
                'MODEL_NOT_FOUND',
                `model "${model}" is not available on Ollama at ${base}; ${servedModels(models)}`,
                { hint: `pull it with: ollama pull ${model}, or pass --model naming one it has` },
              ),
            }),
      };
    },
    close,
  };
}

/** The JSON body (with `tools` when given) of a streamed /api/chat request. */
export function ollamaChatBody(
  cfg: ModelConfig,
  messages: readonly ChatMessage[],
  tools?: readonly ToolSpec[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: cfg.name,
    messages: messages.map(ollamaMessage),
    ...(tools === undefined || tools.length === 0 ? {} : { tools: toolsField(tools) }),
    stream: true,
    options: { temperature: cfg.temperature, num_predict: cfg.num_predict, num_ctx: cfg.num_ctx },
  };
  const keepAlive = cfg.keep_alive.trim();
  // Ollama reads a bare number as seconds (-1: forever) but refuses a number in a string.
  if (keepAlive !== '') body.keep_alive = /^-?\d+(\.\d+)?$/.test(keepAlive) ? Number(keepAlive) : keepAlive;
  return body;
}

/** The error for a non-2xx answer from /api/chat. */
export function ollamaHttpError(status: number, body: string, model: string, base: string): HammerError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const parsed = OllamaErrorSchema.safeParse(json);
  const message = parsed.success ? parsed.data.error : body.trim();
  if (status === 404 && /\bmodel\b.*\bnot found\b/i.test(message)) {
    return new HammerError(
      'MODEL_NOT_FOUND',
      `model "${model}" is not available on Ollama at ${base} (${preview(message, 200)})`,
      {
        hint: `pull it with: ollama pull ${model}, or pass --model naming one it has`,
      },
    );
  }
  return new HammerError(
    'MODEL_ERROR',
    `Ollama at ${base} answered HTTP ${status}: ${preview(message, 300) || '(no body)'}`,
    {
      hint:
        status === 404
          ? `is ${base} an Ollama server? (for an OpenAI-compatible server use --provider openai)`
          : undefined,
    },
  );
}
