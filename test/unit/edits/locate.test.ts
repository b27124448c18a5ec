import { describe, expect, it } from 'vitest';
import { closestRegion, indexLines, locateLines, missingLines } from '../../../src/edits/index.js';
import { indentMap } from '../../../src/edits/indent.js';

const FILE = [
  'def a():',
  '    x = 1',
  '    return x',
  '',
  '',
  'def b():',
  '    x = 1',
  '    return x',
  '',
  'def c():',
  '\ty = 2',
];
const idx = indexLines(FILE);

describe('locateLines', () => {
  it('finds a unique exact match', () => {
    expect(locateLines(idx, ['def b():', '    x = 1'], null)).toEqual({ kind: 'found', at: 5, exact: true });
  });

  it('calls several matches ambiguous, nearest to the stated line first', () => {
    expect(locateLines(idx, ['    x = 1', '    return x'], 6)).toEqual({ kind: 'found', at: 6, exact: true });
    expect(locateLines(idx, ['    x = 1', '    return x'], 5)).toEqual({ kind: 'ambiguous', at: [6, 1] });
    expect(locateLines(idx, ['    x = 1', '    return x'], null)).toEqual({ kind: 'ambiguous', at: [1, 6] });
  });

  it('falls back to a whitespace-tolerant match only when no exact one exists', () => {
    expect(locateLines(idx, ['def  c():', '    y = 2   '], null)).toEqual({ kind: 'found', at: 9, exact: false });
    expect(locateLines(idx, ['def c():', 'y=2'], null)).toEqual({ kind: 'missing' });
  });

  it('never matches nothing, or more lines than the file has', () => {
    expect(locateLines(idx, [], 0)).toEqual({ kind: 'missing' });
    expect(locateLines(indexLines(['a']), ['a', 'b'], 0)).toEqual({ kind: 'missing' });
  });
});

describe('closestRegion and missingLines', () => {
  it('shows the region where most lines line up, with margins, and lists the lines that are nowhere', () => {
    const file = Array.from({ length: 40 }, (_, k) => `line ${k + 1}`);
    file[20] = 'def total(items):';
    file[21] = '    result = 0';
    file[22] = '    for item in items:';
    const want = ['def total(items):', '    result = 1', '    for item in items:', '        result -= item'];
    const r = closestRegion(file, want, 3);
    expect(r?.start).toBe(19);
    expect(r?.lines).toContain('    result = 0');
    expect(missingLines(file, want)).toEqual(['    result = 1', '        result -= item']);
    expect(closestRegion(file, ['nothing like it'], 0)).toBeNull();
  });

  it('ignores lines found everywhere when voting', () => {
    const file = [...Array.from({ length: 60 }, () => '}'), 'fn target() {', '}'];
    expect(closestRegion(file, ['fn target() {', '}'], 0)?.start).toBe(59);
  });
});

describe('indentMap', () => {
  it('adds the prefix the file has over the model', () => {
    const m = indentMap([
      ['        x = 1', '      x = 1'],
      ['    if y:', '  if y:'],
    ]);
    expect(m.changes).toBe(true);
    expect(m.apply('  return 0')).toBe('    return 0');
  });
  it('removes the prefix the model has over the file', () => {
    expect(
      indentMap([
        ['x', '  x'],
        ['  y', '    y'],
      ]).apply('    z'),
    ).toBe('  z');
  });
  it('turns spaces into tabs at the width the pairs show, and back', () => {
    expect(
      indentMap([
        ['\tif a {', '    if a {'],
        ['\t\tb()', '        b()'],
      ]).apply('        c()'),
    ).toBe('\t\tc()');
    expect(indentMap([['    a', '\ta']]).apply('\t\tb')).toBe('        b');
  });
  it('leaves lines alone when the pairs agree or disagree among themselves', () => {
    expect(indentMap([['  a', '  a']]).changes).toBe(false);
    expect(
      indentMap([
        ['  a', ' a'],
        ['    b', ' b'],
      ]).changes,
    ).toBe(false);
  });
});
