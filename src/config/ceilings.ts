// Limits a repository's config may only lower: the user's own configuration is their ceiling. Which
// keys are limits is read from the schema, never from a hand list: every number a repository may set.
import type { z } from 'zod';
import { HammerError } from '../errors.js';
import { type Config, ConfigSchema } from './schema.js';
import type { ConfigLayer } from './toml-source.js';

/**
 * Keys a repository's own `.hammer/config.toml` may set (a table allows each of its keys). The
 * repository is untrusted: it may tune the loop and name its test command, but not weaken the
 * sandbox, redirect the model (and its API key) elsewhere, or choose where the branch goes.
 */
export const REPO_ALLOWED = [
  'tools.test_command',
  'tools.test_timeout',
  'tests.known_failures',
  'tests.rerun_baseline_failures',
  'loop',
  'prompt',
  'sandbox.toolchain',
  'sandbox.toolchain_version',
] as const;

/** A dotted config key that is a ceiling (see REPO_CEILING_KEYS). */
export type CeilingKey = string;

// what the walk reads of a zod schema's definition (zod 4: `schema.def`)
interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: readonly z.ZodType[];
  shape?: Record<string, z.ZodType>;
}

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional']);

function defOf(schema: z.ZodType): SchemaDef {
  let def = schema.def as unknown as SchemaDef;
  while (WRAPPERS.has(def.type) && def.innerType) def = def.innerType.def;
  return def;
}

/** True when the schema's output is a number (a number, a size string read as bytes, a pipe to either). */
function isNumeric(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === 'number') return true;
  if (def.type === 'union') return (def.options ?? []).some(isNumeric);
  if (def.type === 'pipe' && def.in && def.out)
    return isNumeric(def.out) || (defOf(def.out).type === 'transform' && isNumeric(def.in));
  return false;
}

/** The leaf keys under `schema`, dotted after `prefix`. */
function leaves(schema: z.ZodType, prefix: string): string[] {
  const def = defOf(schema);
  if (def.type !== 'object' || !def.shape) return [prefix];
  return Object.entries(def.shape).flatMap(([k, s]) => leaves(s, `${prefix}.${k}`));
}

function schemaAt(key: string): z.ZodType {
  let schema: z.ZodType = ConfigSchema;
  for (const part of key.split('.')) {
    const next = defOf(schema).shape?.[part];
    if (!next) throw new HammerError('INTERNAL', `REPO_ALLOWED names ${key}, which the config schema does not have`);
    schema = next;
  }
  return schema;
}

/** Every leaf key a repository's config may set, read from the schema. */
export function repoSettableKeys(): string[] {
  return REPO_ALLOWED.flatMap((allowed) => leaves(schemaAt(allowed), allowed));
}

/**
 * Every number a repository's `.hammer/config.toml` may set: a size or a count the host pays for
 * (prompt size, memory, iterations, time), so the value the user's own layers give is a hard
 * maximum: the repository can lower it, never raise it. Derived from the schema.
 */
export const REPO_CEILING_KEYS: readonly CeilingKey[] = repoSettableKeys().filter((k) => isNumeric(schemaAt(k)));

/** A ceiling the repository tried to raise. */
export interface CeilingBreach {
  key: CeilingKey;
  repoValue: number;
  userValue: number;
}

/** The value of a dotted key in a resolved config. */
export function ceilingValue(config: Config, key: CeilingKey): number {
  return key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], config) as number;
}

function setValue(config: Config, key: CeilingKey, value: number): void {
  const parts = key.split('.');
  const last = parts.pop()!;
  const table = parts.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], config);
  (table as Record<string, unknown>)[last] = value;
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
    setValue(out, key, repoValue);
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
