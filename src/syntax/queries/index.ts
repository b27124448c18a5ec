// Each language's queries and node types.
import type { LanguageId } from '../languages.js';
import { GO } from './go.js';
import { JAVASCRIPT, TYPESCRIPT } from './javascript.js';
import { PYTHON } from './python.js';
import { RUST } from './rust.js';
import type { LanguageSpec } from './spec.js';

export type { LanguageSpec } from './spec.js';

/** The spec of every language. */
export const SPECS: Readonly<Record<LanguageId, LanguageSpec>> = {
  python: PYTHON,
  javascript: JAVASCRIPT,
  typescript: TYPESCRIPT,
  tsx: TYPESCRIPT,
  go: GO,
  rust: RUST,
};
