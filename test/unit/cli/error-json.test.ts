import { describe, expect, it } from 'vitest';
import { errorJson, renderError } from '../../../src/cli/render-error.js';
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

describe('renderError', () => {
  // what @kubernetes/client-node throws for a refusal: status, message, body and headers in one text
  const raw = async () => {
    const { ApiException } = await import('@kubernetes/client-node');
    return new ApiException(
      403,
      'Unknown API Status Code!',
      '{"kind":"Status","message":"pods \\"p\\" is forbidden: exceeded quota: q","code":403}',
      { 'audit-id': 'a1b2', 'content-type': 'application/json' },
    );
  };

  it("shows a client error as its one-line message and hint; the cluster's raw answer only with --verbose", async () => {
    const { kubeFailure } = await import('../../../src/sandbox/kubernetes/kube-errors.js');
    const err = kubeFailure(await raw(), 'creating pod p');
    expect(err.code).toBe('SANDBOX_QUOTA');
    const plain = renderError(err).text.split('\n');
    expect(plain).toHaveLength(2);
    expect(plain[0]).toBe(
      'hammer-box: error [SANDBOX_QUOTA]: creating pod p: the cluster\'s quota refused it: pods "p" is forbidden: exceeded quota: q',
    );
    expect(plain[1]).toMatch(/^ {2}what to do: lower \[sandbox\] memory/);
    const verbose = renderError(err, { verbose: true }).text;
    expect(verbose).toContain('  cause:\n    HTTP-Code: 403\n    Message: Unknown API Status Code!');
    expect(verbose).toContain('audit-id');
  });

  it('keeps a one-line cause that says more', () => {
    const err = new HammerError('ENGINE_UNAVAILABLE', 'listing pods failed', { cause: new Error('ECONNREFUSED') });
    expect(renderError(err).text).toBe(
      'hammer-box: error [ENGINE_UNAVAILABLE]: listing pods failed\n  cause: ECONNREFUSED',
    );
  });
});
