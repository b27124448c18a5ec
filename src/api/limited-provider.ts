// A model provider whose answers wait their turn: a batch runs many runs against one model server
// (Ollama answers one request at a time), so it caps how many requests are in flight at once.
import type { GenerateRequest, ModelProvider } from '../llm/index.js';

/** Runs `work` when a model request may start (the caller's queue); `signal` takes a waiter out of it. */
export type ModelLimiter = <T>(work: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

/** `provider` with each answer started through `limit` (its timeouts start once it is started). */
export function limitedProvider(provider: ModelProvider, limit: ModelLimiter): ModelProvider {
  return {
    name: provider.name,
    model: provider.model,
    generate: (req: GenerateRequest) => limit(() => provider.generate(req), req.signal),
    check: (opts) => provider.check(opts),
    close: () => provider.close(),
  };
}
