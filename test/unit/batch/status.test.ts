// The one mapping from how a run ended (or what it threw) to the batch's statuses.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../src/errors.js';
import {
  BATCH_STATUSES,
  classifyAttempt,
  isVerdict,
  statusOfErrorCode,
  type AttemptEnd,
} from '../../../src/batch/status.js';

const ended = (run: Partial<NonNullable<AttemptEnd['run']>>, more: Partial<AttemptEnd> = {}): AttemptEnd => ({
  run: { status: 'failed', reason: 'max_iterations', applied: 1, errorCode: null, ...run },
  errorCode: null,
  timedOut: false,
  interrupted: false,
  ...more,
});
const thrown = (code: string, more: Partial<AttemptEnd> = {}): AttemptEnd => ({
  run: null,
  errorCode: code,
  timedOut: false,
  interrupted: false,
  ...more,
});

describe('classifyAttempt', () => {
  it.each([
    ['stable, tests pass', ended({ status: 'stable', reason: 'tests_pass' }), 'stable'],
    ['stable at baseline', ended({ status: 'stable', reason: 'tests_pass_baseline', applied: 0 }), 'stable'],
    ['iteration limit with patches', ended({ reason: 'max_iterations' }), 'budget_exhausted'],
    ['iteration limit, nothing applied', ended({ reason: 'max_iterations', applied: 0 }), 'no_patch'],
    ["agent mode's run step limit with patches", ended({ reason: 'max_steps' }), 'budget_exhausted'],
    ["agent mode's run step limit, nothing applied", ended({ reason: 'max_steps', applied: 0 }), 'no_patch'],
    ['repeated patch', ended({ reason: 'duplicate_patch' }), 'tests_fail'],
    ['no usable diff after a patch', ended({ reason: 'no_usable_diff' }), 'tests_fail'],
    ['no usable diff ever', ended({ reason: 'no_usable_diff', applied: 0 }), 'no_patch'],
  ] as const)('%s: %s', (_name, end, want) => {
    expect(classifyAttempt(end)).toBe(want);
  });

  it('takes a run that ended on its own as it ended, even when the timeout or an interrupt came as it did', () => {
    expect(
      classifyAttempt(ended({ status: 'stable', reason: 'tests_pass' }, { timedOut: true, interrupted: true })),
    ).toBe('stable');
  });

  it('says timeout when the wall-clock limit fired, whatever the run recorded', () => {
    expect(classifyAttempt(thrown('ABORTED', { timedOut: true }))).toBe('timeout');
    expect(
      classifyAttempt(
        ended({ status: 'interrupted', reason: 'interrupted' }, { errorCode: 'ABORTED', timedOut: true }),
      ),
    ).toBe('timeout');
    expect(classifyAttempt(thrown('GIT_FAILED', { timedOut: true, inRepoSetup: true }))).toBe('timeout');
  });

  it('leaves an interrupted attempt unfinished (it runs again)', () => {
    expect(classifyAttempt(thrown('ABORTED', { interrupted: true }))).toBe('unfinished');
    expect(classifyAttempt(ended({ status: 'interrupted', reason: 'interrupted' }, { interrupted: true }))).toBe(
      'unfinished',
    );
    // a state left "running" by a process that died, nothing thrown
    expect(classifyAttempt(ended({ status: 'running', reason: null }))).toBe('unfinished');
  });

  it('maps error codes: the task setup, the model, the machine', () => {
    expect(classifyAttempt(thrown('SETUP_FAILED'))).toBe('setup_failed');
    expect(classifyAttempt(thrown('CONFIG_INVALID'))).toBe('setup_failed');
    expect(classifyAttempt(thrown('MODEL_TIMEOUT'))).toBe('model_error');
    expect(classifyAttempt(thrown('SANDBOX_BROKEN'))).toBe('infra_error');
    expect(classifyAttempt(thrown('ENGINE_UNAVAILABLE'))).toBe('infra_error');
    expect(classifyAttempt(thrown('something new'))).toBe('infra_error');
  });

  it('reads the code of a state that ended in error when nothing was thrown (a recovered attempt)', () => {
    expect(classifyAttempt(ended({ status: 'error', reason: 'error', errorCode: 'MODEL_UNREACHABLE' }))).toBe(
      'model_error',
    );
    expect(classifyAttempt(ended({ status: 'error', reason: 'error', errorCode: null }))).toBe('infra_error');
  });

  it('counts any failure while the task repository is prepared as setup_failed', () => {
    expect(classifyAttempt(thrown('GIT_FAILED', { inRepoSetup: true }))).toBe('setup_failed');
    expect(classifyAttempt(thrown('ABORTED', { inRepoSetup: true, interrupted: true }))).toBe('unfinished');
  });

  it('maps every error code there is', () => {
    for (const code of ERROR_CODES) expect([...BATCH_STATUSES, 'unfinished']).toContain(statusOfErrorCode(code));
    expect(statusOfErrorCode('__proto__')).toBe('infra_error');
  });
});

describe('isVerdict', () => {
  it('is false only for an unknown test result, and infra and model errors', () => {
    expect(BATCH_STATUSES.filter((s) => !isVerdict(s))).toEqual(['unknown', 'model_error', 'infra_error']);
  });
});
