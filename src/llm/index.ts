// The model providers: the only place that speaks HTTP to a model server.
export type {
  ChatMessage,
  ToolCall,
  ToolSpec,
  GenerateProgress,
  GenerateRequest,
  GenerateResult,
  ModelCheck,
  ModelProvider,
} from './types.js';
export type { ProviderDeps } from './provider-deps.js';
export type { Timing } from './generate.js';
export { createProvider } from './create-provider.js';
export { createOllamaProvider } from './ollama.js';
export { createOpenAIProvider } from './openai.js';
export { createReplayProvider, type RecordedAnswer } from './replay.js';
