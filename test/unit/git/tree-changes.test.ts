import { describe, expect, it } from 'vitest';
import { parseRawDiff } from '../../../src/git/tree-changes.js';

const Z = '0'.repeat(40);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('parseRawDiff', () => {
  it('reads added, deleted, modified and type-changed paths with both sides', () => {
    const raw = [
      `:000000 100644 ${Z} ${A} A`,
      'new file.py',
      `:100644 000000 ${A} ${Z} D`,
      'old.py',
      `:120000 120000 ${A} ${B} M`,
      'link',
      `:100644 120000 ${A} ${B} T`,
      'x',
      '',
    ].join('\0');
    expect(parseRawDiff(Buffer.from(raw))).toEqual([
      { path: 'new file.py', before: null, after: { mode: '100644', oid: A } },
      { path: 'old.py', before: { mode: '100644', oid: A }, after: null },
      { path: 'link', before: { mode: '120000', oid: A }, after: { mode: '120000', oid: B } },
      { path: 'x', before: { mode: '100644', oid: A }, after: { mode: '120000', oid: B } },
    ]);
  });
  it('refuses output it does not know', () => {
    expect(() => parseRawDiff(Buffer.from('garbage\0x\0'))).toThrow(/unexpected diff-tree output/);
  });
});
