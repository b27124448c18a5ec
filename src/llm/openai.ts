// The OpenAI-compatible provider (vLLM, llama.cpp server, LM Studio, ...): streamed /v1/chat/completions, /v1/models.
import type { ModelConfig } from '../config/schema.js';
import { HammerError } from '../errors.js';
import { unreachableCheck } from './check-result.js';
import type { ServerInfo } from './describe-failure.js';
import { generateStreamed } from './generate.js';
import { getJson } from './get-json.js';
import { OpenAIErrorSchema, OpenAIModelsSchema, OpenAIStreamParser, openAIErrorDetail } from './openai-wire.js';
import { preview } from './preview.js';
import { type ProviderDeps, resolveDispatcher, resolveTiming } from './provider-deps.js';
import { checkTimeoutMs, timeoutsOf } from './server-info.js';
import { openAIMessage, toolsField, toolsRefusal } from './tool-wire.js';
import type { ChatMessage, ModelProvider, ToolSpec } from './types.js';
import { servedModels, withServedModels } from './model-names.js';
import { openAIRoot } from './urls.js';

const LABEL = 'the OpenAI-compatible server';

/** A provider that talks to an OpenAI-compatible chat completions server. */
export function createOpenAIProvider(cfg: ModelConfig, deps: ProviderDeps = {}): ModelProvider {
  const root = openAIRoot(cfg.url);
  const model = cfg.name;
  const env = deps.env ?? process.env;
  const apiKey = env[cfg.api_key_env];
  const auth: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  const { dispatcher, close } = resolveDispatcher(deps.dispatcher, cfg.connect_timeout);
  const timing = resolveTiming(deps.timing);
  let toolsOff = cfg.tools === 'off';
  const offered = (tools: readonly ToolSpec[] | undefined) =>
    toolsOff || tools === undefined || tools.length === 0 ? undefined : tools;
  const server: ServerInfo = {
    label: LABEL,
    model,
    url: root,
    unreachableHint: `start the model server at ${root} (vLLM, llama.cpp server, LM Studio, ...) or point --llm-url / HAMMER_LLM_URL at it`,
    timeouts: timeoutsOf(cfg),
    httpError: (status, body) =>
      openAIHttpError(status, body, { model, root, keyEnv: cfg.api_key_env, keySet: Boolean(apiKey) }),
  };

  return {
    name: 'openai',
    model,
    generate: async (req) => {
      const listing = async (): Promise<string[] | null> => {
        const res = await getJson(`${root}/v1/models`, {
          dispatcher,
          headers: auth,
          signal: req.signal,
          timeoutMs: checkTimeoutMs(cfg),
        });
        const parsed = res.ok ? OpenAIModelsSchema.safeParse(res.json) : null;
        return parsed?.success ? parsed.data.data.map((m) => m.id) : null;
      };
      const result = await withServedModels(
        generateStreamed(
          {
            server,
            chatUrl: `${root}/v1/chat/completions`,
            headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...auth },
            body: JSON.stringify(openAIChatBody(cfg, req.messages, offered(req.tools))),
            ...(offered(req.tools) === undefined
              ? {}
              : { withoutTools: { body: JSON.stringify(openAIChatBody(cfg, req.messages)), refused: toolsRefusal } }),
            createParser: () => new OpenAIStreamParser(),
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
      const res = await getJson(`${root}/v1/models`, {
        dispatcher,
        headers: auth,
        signal: opts.signal,
        timeoutMs: checkTimeoutMs(cfg),
      });
      if (!res.ok) return unreachableCheck(server, res.error, res.timedOut);
      const listing = OpenAIModelsSchema.safeParse(res.json);
      if (res.status !== 200 || !listing.success) {
        const error = OpenAIErrorSchema.safeParse(res.json);
        const why = error.success ? openAIErrorDetail(error.data).message : res.text;
        return {
          reachable: true,
          modelPresent: false,
          detail: `${root}/v1/models answered HTTP ${res.status}: ${preview(why)}`,
        };
      }
      const models = listing.data.data.map((m) => m.id);
      const present = models.includes(model);
      return {
        reachable: true,
        modelPresent: present,
        models,
        detail: present
          ? `${root} serves ${model}`
          : `${root} does not serve ${model}; it serves: ${models.join(', ') || '(nothing)'}`,
        ...(present
          ? {}
          : {
              error: new HammerError(
                'MODEL_NOT_FOUND',
                `model "${model}" is not served by ${root}; ${servedModels(models)}`,
                { hint: 'pass --model naming one it serves' },
              ),
            }),
      };
    },
    close,
  };
}

/** The JSON body (with `tools` when given) of a streamed chat completion request. */
export function openAIChatBody(
  cfg: ModelConfig,
  messages: readonly ChatMessage[],
  tools?: readonly ToolSpec[],
): Record<string, unknown> {
  return {
    model: cfg.name,
    messages: messages.map(openAIMessage),
    ...(tools === undefined || tools.length === 0 ? {} : { tools: toolsField(tools) }),
    stream: true,
    temperature: cfg.temperature,
    max_tokens: cfg.num_predict,
    stream_options: { include_usage: true },
  };
}

/** The error for a non-2xx answer from /v1/chat/completions. */
export function openAIHttpError(
  status: number,
  body: string,
  ctx: { model: string; root: string; keyEnv: string; keySet: boolean },
): HammerError {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const parsed = OpenAIErrorSchema.safeParse(json);
  const detail = parsed.success ? openAIErrorDetail(parsed.data) : { message: body.trim() };
  const message = preview(detail.message, 300) || '(no body)';
  const aboutModel =
    detail.code === 'model_not_found' || /\bmodel\b.*\b(not found|does not exist|not exist)/i.test(detail.message);
  if (status === 404 && aboutModel) {
    return new HammerError('MODEL_NOT_FOUND', `model "${ctx.model}" is not served by ${ctx.root} (${message})`, {
      hint: `check the name against the served models: curl ${ctx.root}/v1/models`,
    });
  }
  let hint: string | undefined;
  if (status === 401 || status === 403) {
    hint = ctx.keySet ? `the server refused the API key in ${ctx.keyEnv}` : `set ${ctx.keyEnv} to the server's API key`;
  } else if (status === 404) {
    hint = `is ${ctx.root} an OpenAI-compatible server? (for Ollama use --provider ollama)`;
  }
  return new HammerError('MODEL_ERROR', `${LABEL} at ${ctx.root} answered HTTP ${status}: ${message}`, { hint });
}
