// Model names as servers list them.
import { HammerError, isHammerError } from '../errors.js';

/** Ollama treats "name" and "name:latest" as the same model. */
export function sameModel(a: string, b: string): boolean {
  return withTag(a) === withTag(b);
}

function withTag(name: string): string {
  const lastSegment = name.slice(name.lastIndexOf('/') + 1);
  return lastSegment.includes(':') ? name : `${name}:latest`;
}

/** Names listed at most when a model is not found. */
const LISTED = 20;

/** "it has: a, b, c" (sanitised, at most 20 names) or "it has no model" for MODEL_NOT_FOUND's message. */
export function servedModels(models: readonly string[]): string {
  const names = models.map((m) => m.replace(/[^\w.:/@+-]/g, '?').slice(0, 100));
  if (names.length === 0) return 'it has no model';
  const more = names.length > LISTED ? ` and ${names.length - LISTED} more` : '';
  return `it has: ${names.slice(0, LISTED).join(', ')}${more}`;
}

/**
 * `answer`, or when it fails with MODEL_NOT_FOUND, that error saying which models the server has
 * (`list` asks it; null when it cannot say).
 */
export async function withServedModels<T>(answer: Promise<T>, list: () => Promise<string[] | null>): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    if (!isHammerError(err, 'MODEL_NOT_FOUND')) throw err;
    const models = await list().catch(() => null);
    if (models === null) throw err;
    throw new HammerError('MODEL_NOT_FOUND', `${err.message}; ${servedModels(models)}`, {
      ...(err.hint === undefined ? {} : { hint: err.hint }),
      cause: err.cause,
    });
  }
}
