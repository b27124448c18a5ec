// Keys no config layer may hold: merging them into a plain object would reach Object.prototype.

/** Key names refused in every config source (they name a prototype, never a setting). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The dotted path of the first forbidden key in a parsed config tree, or undefined. */
export function findForbiddenKey(values: unknown, prefix = ''): string | undefined {
  if (typeof values !== 'object' || values === null || Array.isArray(values) || values instanceof Date)
    return undefined;
  for (const key of Object.keys(values)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key)) return path;
    const inner = findForbiddenKey((values as Record<string, unknown>)[key], path);
    if (inner !== undefined) return inner;
  }
  return undefined;
}
