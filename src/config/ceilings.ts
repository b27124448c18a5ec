// Limits a repository's config may only lower: the user's own configuration is their ceiling.
import { HammerError } from '../errors.js';
import type { Config } from './schema.js';
import type { ConfigLayer } from './toml-source.js';

/**
 * Every number a repository's `.hammer/config.toml` may set. Each is a size or a count the host
 * pays for (prompt size, memory, iterations, time), so the value the user's own layers give is a
 * hard maximum: the repository can lower it, never raise it.
 */
export const REPO_CEILING_KEYS = [
  'tools.test_timeout',
  'loop.max_iterations',
  'loop.max_diff_lines',
  'loop.max_unusable_answers',
  'prompt.budget_chars',
  'prompt.tree_max_entries',
  'prompt.file_max_bytes',
  'prompt.output_head_lines',
  'prompt.output_tail_lines',
  'prompt.directive_max_bytes',
] as const;
export type CeilingKey = (typeof REPO_CEILING_KEYS)[number];

/** A ceiling the repository tried to raise. */
export interface CeilingBreach {
  key: CeilingKey;
  repoValue: number;
  userValue: number;
}

/** The value of a dotted key in a resolved config. */
export function ceilingValue(config: Config, key: CeilingKey): number {
  const [table, name] = key.split('.') as [keyof Config, string];
  return (config[table] as Record<string, number>)[name] as number;
}

/** True when the layer sets `key` (a dotted path). */
export function layerSets(layer: ConfigLayer, key: string): boolean {
  let cur: unknown = layer.values;
  for (const part of key.split('.')) {
    if (typeof cur !== 'object' || cur === null || !Object.prototype.hasOwnProperty.call(cur, part)) return false;
    cur = (cur as Record<string, unknown>)[part];
  }
  return true;
}

/**
 * Apply the repository's limits (pure): `repoOnTop` is the config with the repository's layer
 * above every other, `user` the config without it. Each ceiling key the repository sets takes its
 * value when it is not above the user's; the keys it raises are returned as breaches.
 */
export function applyRepoCeilings(
  merged: Config,
  repoOnTop: Config,
  user: Config,
  repoSets: (key: CeilingKey) => boolean,
): { config: Config; lowered: CeilingKey[]; breaches: CeilingBreach[] } {
  const out = structuredClone(merged);
  const lowered: CeilingKey[] = [];
  const breaches: CeilingBreach[] = [];
  for (const key of REPO_CEILING_KEYS) {
    if (!repoSets(key)) continue;
    const repoValue = ceilingValue(repoOnTop, key);
    const userValue = ceilingValue(user, key);
    if (repoValue > userValue) {
      breaches.push({ key, repoValue, userValue });
      continue;
    }
    const [table, name] = key.split('.') as [keyof Config, string];
    (out[table] as Record<string, number>)[name] = repoValue;
    lowered.push(key);
  }
  return { config: out, lowered, breaches };
}

/** CONFIG_INVALID naming the repository's file, line and key for each limit it tried to raise. */
export function ceilingError(
  layer: ConfigLayer,
  breaches: CeilingBreach[],
  userSource: (key: string) => string,
): HammerError {
  const lines = breaches.map((b) => {
    const line = layer.lines.get(b.key);
    return `${layer.source}${line ? `:${line}` : ''}: ${b.key} = ${b.repoValue} is above your limit ${b.userValue} (set by ${userSource(b.key)})`;
  });
  return new HammerError('CONFIG_INVALID', `a repository's config may only lower a limit:\n  ${lines.join('\n  ')}`, {
    hint: 'the repository is untrusted; if you accept the higher value, set it yourself with --config, a HAMMER_* variable or a flag',
  });
}
