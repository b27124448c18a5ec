import { describe, expect, it } from 'vitest';
import type { ContextResult } from '../../../src/context/index.js';
import { contextRecord } from '../../../src/loop/context-record.js';
import { IterationSchema } from '../../../src/state/run-state.js';
import { iteration } from '../state/make-state.js';

const result: ContextResult = {
  files: [
    {
      path: 'tests/test_a.py',
      reason: 'failure',
      detail: 'line 5 in the failure',
      whole: true,
      ranges: [{ start: 1, end: 9 }],
      totalLines: 9,
      text: 'x'.repeat(120),
      stableText: 'x'.repeat(120),
      focusParts: [],
      changed: false,
      test: true,
    },
    {
      path: 'a.py',
      reason: 'import',
      detail: '',
      whole: false,
      ranges: [
        { start: 1, end: 5 },
        { start: 400, end: 420 },
      ],
      totalLines: 900,
      text: 'y'.repeat(300),
      stableText: 'y'.repeat(300),
      focusParts: [],
      changed: false,
      test: false,
    },
  ],
  map: { text: 'b.py:\n 1: def b()', files: [{ path: 'b.py', definitions: 1, chars: 17 }] },
  wholeRepository: false,
  sourceFiles: 3,
  read: [],
};

describe('contextRecord', () => {
  it('records each file and region shown with its reason and size, then the map, and the state accepts it', () => {
    const record = contextRecord(result);
    expect(record).toEqual({
      whole_repository: false,
      items: [
        { path: 'tests/test_a.py', reason: 'failure', detail: 'line 5 in the failure', shown: 'whole', chars: 120 },
        { path: 'a.py', reason: 'import', shown: 'regions', lines: '1-5,400-420', chars: 300 },
        { path: 'b.py', reason: 'map', shown: 'outline', chars: 17 },
      ],
    });
    expect(IterationSchema.parse({ ...iteration(1, 'applied'), context: record }).context).toEqual(record);
  });

  it('keeps state files written before the record readable, and refuses an unknown reason', () => {
    const old = iteration(1, 'applied');
    expect('context' in old).toBe(false);
    expect(IterationSchema.safeParse(old).success).toBe(true);
    const bad = {
      ...old,
      context: { whole_repository: false, items: [{ path: 'a', reason: 'whim', shown: 'whole', chars: 1 }] },
    };
    expect(IterationSchema.safeParse(bad).success).toBe(false);
  });
});
