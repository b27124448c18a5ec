// The HAMMER_* (and OLLAMA_HOST) environment variables as a config layer.
import type { ConfigLayer } from './toml-source.js';

/** Variables hammer-box reads, and the config key each one sets. */
export const ENV_KEYS = {
  HAMMER_PROVIDER: 'model.provider',
  HAMMER_MODEL: 'model.name',
  HAMMER_LLM_URL: 'model.url',
  HAMMER_LLM_TIMEOUT: 'model.timeout',
  HAMMER_MAX_ITERATIONS: 'loop.max_iterations',
  HAMMER_TEST_COMMAND: 'tools.test_command',
  HAMMER_TEST_TIMEOUT: 'tools.test_timeout',
  HAMMER_IMAGE: 'sandbox.image',
  HAMMER_TOOLCHAIN: 'sandbox.toolchain',
  HAMMER_TOOLCHAIN_VERSION: 'sandbox.toolchain_version',
  HAMMER_RUNTIME: 'sandbox.runtime',
  HAMMER_BASE: 'git.base',
} as const;

const NUMERIC = new Set(['model.timeout', 'loop.max_iterations', 'tools.test_timeout']);

/** Build the HAMMER_* environment layer. */
export function envLayer(env: NodeJS.ProcessEnv): ConfigLayer {
  const values: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    setPath(values, key, NUMERIC.has(key) && /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw);
  }
  return { source: 'environment', values, lines: new Map() };
}

/** The source name of the OLLAMA_HOST layer (it only counts when the provider is ollama). */
export const OLLAMA_HOST_SOURCE = 'OLLAMA_HOST';

/**
 * OLLAMA_HOST is Ollama's own variable: it sets model.url just above the defaults, below every
 * hammer-box source, and is dropped when the resolved provider is not ollama.
 */
export function ollamaHostLayer(env: NodeJS.ProcessEnv): ConfigLayer | undefined {
  if (!env.OLLAMA_HOST) return undefined;
  const values: Record<string, unknown> = {};
  setPath(values, 'model.url', ollamaHostToUrl(env.OLLAMA_HOST));
  return { source: OLLAMA_HOST_SOURCE, values, lines: new Map() };
}

/** OLLAMA_HOST accepts "0.0.0.0", "host:port" or a full URL; turn it into a URL the client can call. */
export function ollamaHostToUrl(host: string): string {
  let h = host.trim();
  if (!/^https?:\/\//.test(h)) h = `http://${h}`;
  const u = new URL(h);
  if (u.hostname === '0.0.0.0') u.hostname = '127.0.0.1';
  // like Ollama: a bare host gets 11434; a URL with a scheme keeps its scheme's default port
  if (!u.port && !/^https?:\/\//.test(host.trim())) u.port = '11434';
  return u.toString().replace(/\/$/, '');
}

/** Set a dotted key in a nested object. */
export function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let cur = target;
  for (const p of parts.slice(0, -1)) {
    const next = cur[p];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1] as string] = value;
}
