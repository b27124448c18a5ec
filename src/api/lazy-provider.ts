// A model provider whose implementation (undici and the wire parsers) loads in the background:
// the first model request is seconds away (sandbox, copy in, baseline), so the module load
// overlaps with waiting for the engine instead of delaying the start.
import type { ModelConfig } from '../config/schema.js';
import type { GenerateRequest, ModelProvider, ProviderDeps } from '../llm/index.js';

/** Start loading src/llm now; the provider is created on first use. */
export function lazyProvider(cfg: ModelConfig, deps: ProviderDeps): ModelProvider {
  const loading = import('../llm/index.js').then((llm) => llm.createProvider(cfg, deps));
  loading.catch(() => undefined); // surfaces at first use
  return {
    name: cfg.provider,
    model: cfg.name,
    generate: async (req: GenerateRequest) => (await loading).generate(req),
    check: async (opts) => (await loading).check(opts),
    close: async () => {
      const p = await loading.catch(() => undefined);
      await p?.close();
    },
  };
}
