// Choosing the provider the configuration names.
import type { ModelConfig } from '../config/schema.js';
import { createOllamaProvider } from './ollama.js';
import { createOpenAIProvider } from './openai.js';
import type { ProviderDeps } from './provider-deps.js';
import { createReplayProvider } from './replay.js';
import type { ModelProvider } from './types.js';

/** The provider for `cfg.provider`; close() it when done to release its connections. */
export function createProvider(cfg: ModelConfig, deps: ProviderDeps = {}): ModelProvider {
  switch (cfg.provider) {
    case 'ollama':
      return createOllamaProvider(cfg, deps);
    case 'openai':
      return createOpenAIProvider(cfg, deps);
    case 'replay':
      return createReplayProvider(cfg.name, deps.replayAnswers ?? [], deps.timing?.now);
  }
}
