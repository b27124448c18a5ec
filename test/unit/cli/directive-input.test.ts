// Where `run` takes its directive from: a file, stdin or -m.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { directiveInput, MAX_STDIN_DIRECTIVE_BYTES } from '../../../src/cli/directive-input.js';
import { HammerError } from '../../../src/errors.js';

describe('directiveInput', () => {
  const noStdin = Readable.from([]);

  it('passes a file on, to be read by run', async () => {
    expect(await directiveInput({ directive: 'fix.md' }, noStdin)).toEqual({ directive: 'fix.md' });
  });

  it('takes -m text as the directive', async () => {
    expect(await directiveInput({ message: 'fix the parser' }, noStdin)).toEqual({
      directive: '--message',
      directiveText: 'fix the parser',
    });
  });

  it('reads --directive - from stdin to its end', async () => {
    const stdin = Readable.from([Buffer.from('fix '), Buffer.from('the parser\n')]);
    expect(await directiveInput({ directive: '-' }, stdin)).toEqual({
      directive: 'stdin',
      directiveText: 'fix the parser\n',
    });
  });

  it('refuses a run without a directive, naming the three ways to give one', async () => {
    const err = await directiveInput({}, noStdin).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HammerError);
    expect((err as HammerError).code).toBe('USAGE');
    expect((err as HammerError).hint).toMatch(/--directive <file>, --directive - .* -m/);
  });

  it('refuses a stdin directive over the cap', async () => {
    const big = Readable.from([Buffer.alloc(MAX_STDIN_DIRECTIVE_BYTES + 1, 'a')]);
    const err = await directiveInput({ directive: '-' }, big).catch((e: unknown) => e);
    expect((err as HammerError).code).toBe('USAGE');
  });
});
