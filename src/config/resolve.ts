// Resolve the configuration: defaults < OLLAMA_HOST / OPENAI_BASE_URL < repo .hammer/config.toml < --config
// < environment < flags.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { HammerError } from '../errors.js';
import { packageRoot } from '../paths.js';
import { applyRepoCeilings, ceilingError, layerSets, REPO_ALLOWED } from './ceilings.js';
import { envLayer, providerUrlLayers } from './env-layer.js';
import { FORBIDDEN_KEYS } from './safe-keys.js';
import { type Config, ConfigSchema } from './schema.js';
import { type ConfigLayer, readTomlLayer } from './toml-source.js';

/** Where a repository's own config lives, relative to its root. */
export const REPO_CONFIG_PATH = ['.hammer', 'config.toml'] as const;

/** Keys a repository's own `.hammer/config.toml` may set (see ceilings.ts). */
export { REPO_ALLOWED };

export interface ResolveOptions {
  /** The user's repository (for its .hammer/config.toml), if any. */
  repo?: string;
  /** --config file. */
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  /** Flags, already as nested config keys (e.g. { loop: { max_iterations: 3 } }). */
  flags?: Record<string, unknown>;
  /** Override the defaults file (tests). */
  defaultsFile?: string;
}

export interface ResolvedConfig {
  config: Config;
  /** Which source set each dotted key last (for `doctor` and error messages). */
  sources: Map<string, string>;
}

/**
 * Load every layer, merge them and validate the result; errors name file, line and key. The
 * repository's layer may set only REPO_ALLOWED keys, and may only lower the limits among them
 * (see ceilings.ts): the user's own layers are the ceiling.
 */
export async function resolveConfig(options: ResolveOptions = {}): Promise<ResolvedConfig> {
  const layers: ConfigLayer[] = [];
  const defaults = await readTomlLayer(options.defaultsFile ?? join(packageRoot(), 'configs', 'default.toml'));
  if (defaults) layers.push(defaults);
  const env = options.env ?? process.env;
  const providerUrls = providerUrlLayers(env);
  layers.push(...providerUrls.map((p) => p.layer));
  const repoLayer = options.repo ? await readRepoLayer(options.repo) : undefined;
  if (repoLayer) {
    checkRepoLayer(repoLayer);
    layers.push(repoLayer);
  }
  if (options.configFile) {
    const file = await readTomlLayer(options.configFile);
    if (file) layers.push(file);
  }
  layers.push(envLayer(env));
  if (options.flags) layers.push({ source: 'command line', values: options.flags, lines: new Map() });
  // OLLAMA_HOST must never send another provider's requests (and API key) to the Ollama host, nor
  // OPENAI_BASE_URL Ollama's requests to an OpenAI endpoint
  const merge = (ls: ConfigLayer[]): ResolvedConfig => {
    const resolved = mergeAndValidate(ls);
    const foreign = providerUrls.filter((p) => p.provider !== resolved.config.model.provider).map((p) => p.layer);
    if (foreign.some((l) => resolved.sources.get('model.url') === l.source))
      return mergeAndValidate(ls.filter((l) => !foreign.includes(l)));
    return resolved;
  };
  const resolved = merge(layers);
  if (!repoLayer) return resolved;
  const user = merge(layers.filter((l) => l !== repoLayer));
  const repoOnTop = merge([...layers.filter((l) => l !== repoLayer), repoLayer]);
  const ceiled = applyRepoCeilings(resolved.config, repoOnTop.config, user.config, (k) => layerSets(repoLayer, k));
  if (ceiled.breaches.length)
    throw ceilingError(repoLayer, ceiled.breaches, (k) => user.sources.get(k) ?? 'the defaults');
  const sources = new Map(resolved.sources);
  for (const key of ceiled.lowered) sources.set(key, repoLayer.source);
  return { config: ceiled.config, sources };
}

/**
 * The repository's `.hammer/config.toml`, or undefined when it has none. Untrusted: `.hammer` must
 * be a real directory and the file a regular file (never read through a symlink), of capped size.
 */
async function readRepoLayer(repo: string): Promise<ConfigLayer | undefined> {
  const dir = join(repo, REPO_CONFIG_PATH[0]);
  const st = await lstat(dir).catch(() => undefined);
  if (st === undefined) return undefined;
  if (!st.isDirectory())
    throw new HammerError(
      'CONFIG_INVALID',
      `${dir} is ${st.isSymbolicLink() ? 'a symlink' : 'not a directory'}; a repository's config is read only from a real .hammer directory`,
      { hint: 'the repository is untrusted: remove that .hammer from it (or run on a checkout without it)' },
    );
  return readTomlLayer(join(dir, REPO_CONFIG_PATH[1]), {
    optional: true,
    noFollow: true,
    hint: "the repository's .hammer/config.toml must be a small plain TOML file",
  });
}

/** Merge layers (later wins, tables merge key by key) and validate with the schema. */
export function mergeAndValidate(layers: ConfigLayer[]): ResolvedConfig {
  const merged: Record<string, unknown> = {};
  const sources = new Map<string, string>();
  const where = new Map<string, string>();
  for (const layer of layers) {
    mergeInto(merged, layer.values, '', layer.source, (key) => {
      const line = layer.lines.get(key);
      sources.set(key, layer.source);
      where.set(key, line ? `${layer.source}:${line}` : layer.source);
    });
  }
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success) throw configError(parsed.error, where);
  return { config: parsed.data, sources };
}

function mergeInto(
  target: Record<string, unknown>,
  src: Record<string, unknown>,
  prefix: string,
  source: string,
  seen: (key: string) => void,
): void {
  for (const [k, v] of Object.entries(src)) {
    const key = prefix ? `${prefix}.${k}` : k;
    // every file layer is checked when parsed; flags and environment layers are built by us
    if (FORBIDDEN_KEYS.has(k)) throw new HammerError('CONFIG_INVALID', `${source}: ${key}: not a config key`);
    const isTable = typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
    // sandbox.env is a value (a map of variables), not a table to merge into.
    if (isTable && key !== 'sandbox.env') {
      const cur = target[k];
      if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) target[k] = {};
      mergeInto(target[k] as Record<string, unknown>, v as Record<string, unknown>, key, source, seen);
    } else {
      target[k] = v;
      seen(key);
    }
  }
}

function configError(error: z.ZodError, where: Map<string, string>): HammerError {
  const lines = error.issues.flatMap((issue) => {
    const key = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => {
        const full = key ? `${key}.${k}` : k;
        const loc = locate(full, where);
        return `${loc ? `${loc}: ` : ''}${full}: unknown key`;
      });
    }
    const loc = locate(key, where);
    return [`${loc ? `${loc}: ` : ''}${key}: ${issue.message}`];
  });
  return new HammerError('CONFIG_INVALID', `invalid configuration:\n  ${lines.join('\n  ')}`, {
    hint: 'every key and its meaning is listed in configs/default.toml and docs/configuration.md',
  });
}

function locate(key: string, where: Map<string, string>): string | undefined {
  for (let k = key; k; k = k.includes('.') ? k.slice(0, k.lastIndexOf('.')) : '') {
    const hit = where.get(k);
    if (hit) return hit;
    // an unknown key is reported on its table: look for any key under it
    for (const [wk, wv] of where) if (wk.startsWith(`${k}.`)) return wv.replace(/:\d+$/, '');
  }
  return undefined;
}

function checkRepoLayer(layer: ConfigLayer): void {
  const bad: string[] = [];
  const walk = (obj: Record<string, unknown>, prefix: string): void => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (REPO_ALLOWED.some((a) => key === a || key.startsWith(`${a}.`))) continue;
      if (typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)) {
        walk(v as Record<string, unknown>, key);
        continue;
      }
      const line = layer.lines.get(key);
      bad.push(`${layer.source}${line ? `:${line}` : ''}: ${key}`);
    }
  };
  walk(layer.values, '');
  if (bad.length) {
    throw new HammerError('CONFIG_INVALID', `a repository's config may not set:\n  ${bad.join('\n  ')}`, {
      hint: `the repository is untrusted; it may set only ${REPO_ALLOWED.join(', ')}. Put the rest in --config, HAMMER_* variables or flags`,
    });
  }
}
