// Loading tool plugins: ESM modules named in [tools] plugins, each exporting register(registry).
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HammerError } from '../errors.js';
import type { ToolRegistry } from './registry.js';

/** Import each plugin module and let it register its tools; a broken plugin is a config error naming it. */
export async function loadToolPlugins(
  registry: ToolRegistry,
  plugins: readonly string[],
  cwd = process.cwd(),
): Promise<void> {
  for (const spec of plugins) {
    const path = isAbsolute(spec) ? spec : resolve(cwd, spec);
    let mod: unknown;
    try {
      mod = await import(pathToFileURL(path).href);
    } catch (err) {
      throw new HammerError('CONFIG_INVALID', `cannot load tool plugin ${path}: ${(err as Error).message}`, {
        hint: 'check [tools] plugins',
        cause: err,
      });
    }
    const register =
      (mod as { register?: unknown; default?: { register?: unknown } }).register ??
      (mod as { default?: { register?: unknown } }).default?.register;
    if (typeof register !== 'function') {
      throw new HammerError('CONFIG_INVALID', `tool plugin ${path} exports no register(registry) function`, {
        hint: 'export function register(registry) { registry.register({...}) }',
      });
    }
    await (register as (r: ToolRegistry) => unknown)(registry);
  }
}
