// Warming the context code before the first prompt: the grammars of the languages it will read, and
// a rehearsal of the build in each (see warm-up.ts), given the builder it rehearses.
import { buildContext } from './build-context.js';
import type { ParseCache } from './parse-cache.js';
import { rehearseBuilds } from './warm-up.js';

/**
 * Load the grammars of the languages among `paths`, compile their queries, and rehearse a prompt
 * build in each, in the background of something slower (the sandbox's start), so the first prompt
 * pays neither for loading nor for the engine's first, unoptimised runs of the parser and this code.
 */
export async function warmContext(cache: ParseCache, paths: readonly string[]): Promise<void> {
  const languages = await cache.loadGrammars(paths);
  await rehearseBuilds(languages, buildContext);
}
