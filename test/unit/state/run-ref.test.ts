// Naming a run by its id, the start of it, the letters after its dash, or --last.
import { describe, expect, it } from 'vitest';
import { matchRunRef } from '../../../src/state/run-ref.js';
import { pickRunId, runRefOf } from '../../../src/api/run-ref.js';
import { isHammerError } from '../../../src/errors.js';

const A = '20261122T140501Z-k3b7qa';
const B = '20261123T090000Z-k3zzzz';
const C = '20261123T100000Z-qwerty';
const IDS = [A, C, B, 'not-a-run', 'tmp.json'];

describe('matchRunRef', () => {
  it('finds a whole id, a unique start of one, and a unique start of the letters after the dash', () => {
    expect(matchRunRef(IDS, A)).toEqual({ kind: 'one', runId: A });
    expect(matchRunRef(IDS, '20261122')).toEqual({ kind: 'one', runId: A });
    expect(matchRunRef(IDS, '20261123t10')).toEqual({ kind: 'one', runId: C });
    expect(matchRunRef(IDS, 'k3b')).toEqual({ kind: 'one', runId: A });
    expect(matchRunRef(IDS, 'QWE')).toEqual({ kind: 'one', runId: C });
  });

  it('names the candidates of a reference that fits several, newest first; none for no match', () => {
    expect(matchRunRef(IDS, 'k3')).toEqual({ kind: 'many', runIds: [B, A] });
    expect(matchRunRef(IDS, '2026112')).toEqual({ kind: 'many', runIds: [C, B, A] });
    expect(matchRunRef(IDS, 'nope')).toEqual({ kind: 'none' });
    expect(matchRunRef(IDS, '')).toEqual({ kind: 'none' });
    expect(matchRunRef(IDS, 'not-a-run')).toEqual({ kind: 'none' });
  });

  it('--last is the newest run', () => {
    expect(matchRunRef(IDS, { last: true })).toEqual({ kind: 'one', runId: C });
    expect(matchRunRef([], { last: true })).toEqual({ kind: 'none' });
  });
});

describe('pickRunId and runRefOf', () => {
  const codeOf = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      return isHammerError(err) ? `${err.code}: ${err.message}` : String(err);
    }
    return 'no error';
  };

  it('says which runs an ambiguous reference fits (USAGE) and that none fits (RUN_NOT_FOUND)', () => {
    expect(pickRunId(IDS, 'k3b7')).toBe(A);
    expect(codeOf(() => pickRunId(IDS, 'k3'))).toBe(`USAGE: "k3" names 2 runs: ${B}, ${A}`);
    expect(codeOf(() => pickRunId(IDS, 'zz'))).toBe('RUN_NOT_FOUND: no run "zz"');
    expect(codeOf(() => pickRunId([], { last: true }))).toBe('RUN_NOT_FOUND: there is no run yet');
  });

  it('takes a run id or --last, never both or neither', () => {
    expect(runRefOf('abc', undefined)).toBe('abc');
    expect(runRefOf(undefined, true)).toEqual({ last: true });
    expect(codeOf(() => runRefOf('abc', true))).toMatch(/^USAGE: both/);
    expect(codeOf(() => runRefOf(undefined, undefined))).toBe('USAGE: which run?');
  });
});
