#!/usr/bin/env node
// hammer-box's executable: parse, run one command, map the outcome to an exit code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { packageRoot } from '../paths.js';
import { EXIT } from './exit-codes.js';
import { buildProgram } from './program.js';
import { errorJson, renderError } from './render-error.js';
import { printJson } from './terminal-json.js';

// a reader that stops early (`hammer-box images show X | head`) is not an error of ours
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const { version } = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
const program = buildProgram(version);
/** How long the process may linger after its command finished (pending output is flushed first). */
const EXIT_GRACE_MS = 2_000;
// a command run with --json answers with a JSON document on stdout, errors included
let json = false;
// --verbose errors also show the raw answer under them (a cluster's body and headers)
let verbose = false;
program.hook('preAction', (_cmd, action) => {
  json = action.opts()['json'] === true;
  verbose = action.opts()['verbose'] === true;
});

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // help and version are not errors; everything else commander refuses is a usage error
    process.exitCode = err.exitCode === 0 ? 0 : EXIT.usage;
    if (err.exitCode !== 0 && process.argv.includes('--json'))
      printJson({
        error: { code: 'USAGE', message: err.message.replace(/^error: /, ''), hint: null, exit_code: EXIT.usage },
      });
  } else {
    const { text, exitCode } = renderError(err, { verbose });
    process.stderr.write(`${text}\n`);
    if (json) printJson(errorJson(err, exitCode));
    process.exitCode = exitCode;
  }
}
// The command is done. Whatever is still open (a request to an engine that never answered, a
// socket of a model server) must not keep the process alive: it gets a moment, then exits.
setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
