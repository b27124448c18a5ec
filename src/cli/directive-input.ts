// Where `run` gets its directive: a file, stdin (`--directive -`) or the command line (`-m`).
import { HammerError } from '../errors.js';

/** The most a directive read from stdin may hold. */
export const MAX_STDIN_DIRECTIVE_BYTES = 1024 * 1024;

/** What `run` passes on: a file to read, or the text and a label recorded for where it came from. */
export type DirectiveInput = { directive: string } | { directive: 'stdin' | '--message'; directiveText: string };

/** The directive the flags name (USAGE when none); stdin is read to its end. */
export async function directiveInput(
  f: { directive?: string; message?: string },
  stdin: AsyncIterable<Buffer | string> = process.stdin,
): Promise<DirectiveInput> {
  if (f.message !== undefined) return { directive: '--message', directiveText: f.message };
  if (f.directive === '-') return { directive: 'stdin', directiveText: await readAll(stdin) };
  if (f.directive !== undefined) return { directive: f.directive };
  throw new HammerError('USAGE', 'no directive: say what the model should do', {
    hint: "pass --directive <file>, --directive - (read from stdin), -m '<text>' or --plan <plan.md>",
  });
}

async function readAll(stdin: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += b.length;
    if (size > MAX_STDIN_DIRECTIVE_BYTES)
      throw new HammerError('USAGE', `the directive on stdin is over ${MAX_STDIN_DIRECTIVE_BYTES} bytes`, {
        hint: 'say what to do in fewer words; the model reads the code itself',
      });
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}
