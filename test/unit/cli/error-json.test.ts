import { describe, expect, it } from 'vitest';
import { errorJson } from '../../../src/cli/render-error.js';
import { HammerError, withRunRef } from '../../../src/errors.js';

describe('errorJson', () => {
  it('names the code, message, hint, exit code and the run the error ended', () => {
    const err = withRunRef(new HammerError('SETUP_FAILED', 'setup \u001b]52;c;x\u0007failed', { hint: 'fix it' }), {
      id: 'r1',
      statePath: '/repo/.hammer/runs/r1.json',
    });
    expect(errorJson(err, 3)).toEqual({
      error: {
        code: 'SETUP_FAILED',
        message: expect.not.stringContaining('\u001b') as unknown,
        hint: 'fix it',
        exit_code: 3,
      },
      run_id: 'r1',
      state_path: '/repo/.hammer/runs/r1.json',
    });
  });

  it('an error without a run, or not ours, still gives a document', () => {
    expect(errorJson(new HammerError('USAGE', 'bad flag'), 2)).toMatchObject({
      error: { code: 'USAGE', hint: null },
      run_id: null,
    });
    expect(errorJson(new Error('boom'), 1)).toMatchObject({
      error: { code: 'INTERNAL', message: 'boom' },
      state_path: null,
    });
  });
});
