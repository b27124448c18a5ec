// A package.json test script that is a chain of parts stopping at the first failure
// (`npm-run-all test:*`, `a && b && c`, `make test lint`): the same parts run whole, each even
// when an earlier one fails, so a run's baseline knows what every part runs and a later part's
// failures are never mistaken for new ones. Pure.

/** The whole form of a test script, and how it differs. */
export interface WholeSuite {
  /** The command that runs every part (in the package's directory). */
  command: string;
  /** What was changed, for the environment line. */
  how: string;
}

/** Longest script taken apart; anything else a script may hold keeps it as it is. */
const MAX_SCRIPT = 500;
/** Shell syntax besides `&&` that makes a script more than a plain chain (`||`, `;`, pipes, redirections, substitutions). */
const OTHER_SYNTAX = /\|\||[;|<>`\n\r\\]|\$\(|(^|[^&])&(?!&)/;
/** npm-run-all's programs (and npm-run-all2's). */
const RUN_ALL = new Set(['npm-run-all', 'npm-run-all2', 'run-s', 'run-p']);

/**
 * The whole form of `script` (the package's `test`), or null when it is no chain, already runs
 * every part, holds other shell syntax, or the package has pretest/posttest scripts (the whole
 * form runs instead of `<pm> test`, which would run those).
 */
export function wholeSuite(script: string, scripts: Readonly<Record<string, unknown>>): WholeSuite | null {
  const text = script.trim();
  if (text === '' || text.length > MAX_SCRIPT || !/^[\x20-\x7e]+$/.test(text)) return null;
  if (typeof scripts['pretest'] === 'string' || typeof scripts['posttest'] === 'string') return null;
  if (/['"]/.test(text) && /['"][^'"]*&&[^'"]*['"]/.test(text)) return null;
  const words = text.split(/\s+/);
  const program = words[0] === 'npx' ? 1 : 0;
  if (RUN_ALL.has(words[program] ?? '')) {
    if (OTHER_SYNTAX.test(text) || text.includes('&&')) return null;
    if (words.some((w) => w === '-c' || w === '--continue-on-error')) return null;
    return {
      command: [...words.slice(0, program + 1), '--continue-on-error', ...words.slice(program + 1)].join(' '),
      how: `the test script (${text}) with --continue-on-error, so every script runs`,
    };
  }
  if (words[0] === 'make' && !text.includes('&&') && !OTHER_SYNTAX.test(text)) {
    if (words.some((w) => /^-[a-zA-Z]*k/.test(w) || w === '--keep-going')) return null;
    return {
      command: `make -k ${words.slice(1).join(' ')}`.trim(),
      how: `the test script (${text}) with -k, so every target runs`,
    };
  }
  if (!text.includes('&&') || OTHER_SYNTAX.test(text)) return null;
  const parts = text.split('&&').map((p) => p.trim());
  if (parts.length < 2 || parts.some((p) => p === '')) return null;
  return {
    command: `hb_exit=0; ${parts.map((p) => `${p} || hb_exit=$?`).join('; ')}; exit $hb_exit`,
    how: `each part of the test script (${text}) run even when one before it fails`,
  };
}
