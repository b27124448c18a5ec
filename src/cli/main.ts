#!/usr/bin/env node
// hammer-box's executable: parse, run one command, map the outcome to an exit code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { packageRoot } from '../paths.js';
import { EXIT } from './exit-codes.js';
import { buildProgram } from './program.js';
import { renderError } from './render-error.js';

const { version } = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
const program = buildProgram(version);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // help and version are not errors; everything else commander refuses is a usage error
    process.exitCode = err.exitCode === 0 ? 0 : EXIT.usage;
  } else {
    const { text, exitCode } = renderError(err);
    process.stderr.write(`${text}\n`);
    process.exitCode = exitCode;
  }
}
