import { describe, expect, it } from 'vitest';
import {
  candidateRegions,
  focusRegions,
  lineRegion,
  MAX_FUNCTION_LINES,
  MAX_REGION_LINES,
  mergeRanges,
  renderRegions,
  renderWhole,
} from '../../../src/context/regions.js';
import type { Definition } from '../../../src/syntax/index.js';

function def(
  name: string,
  startLine: number,
  endLine: number,
  depth = 0,
  kind: Definition['kind'] = 'function',
): Definition {
  return { kind, name, qualifiedName: name, startLine, endLine, depth, signature: `def ${name}()` };
}

describe('lineRegion', () => {
  it('is the outermost enclosing definition short enough to show whole', () => {
    const defs = [def('Cart', 10, 60, 0, 'class'), def('total', 40, 45, 1, 'method')];
    expect(lineRegion(defs, 42)).toEqual({ start: 10, end: 60 });
  });
  it('falls back to the innermost definition, then to a window, when the class is too long', () => {
    const defs = [def('Big', 1, 1 + MAX_REGION_LINES * 3, 0, 'class'), def('m', 300, 320, 1, 'method')];
    expect(lineRegion(defs, 310)).toEqual({ start: 300, end: 320 });
    expect(lineRegion(defs, 200)).toEqual({ start: 188, end: 212 });
    expect(lineRegion([], 5)).toEqual({ start: 1, end: 17 });
  });
});

describe('candidateRegions', () => {
  const defs = [def('a', 30, 34), def('helper', 50, 52), def('b', 100, 110), def('c', 200, 205)];
  const ids = [
    { name: 'helper', line: 32 },
    { name: 'x', line: 101 },
  ];
  it('orders asked ranges, failure lines, named definitions, their callees, then the imports at the top', () => {
    const r = candidateRegions(defs, ids, 300, { lines: [102], names: ['a'], ranges: [{ start: 250, end: 260 }] });
    expect(r).toEqual([
      { start: 250, end: 260, why: 'range' },
      { start: 100, end: 110, why: 'line' },
      { start: 30, end: 34, why: 'name' },
      { start: 50, end: 52, why: 'callee' },
      { start: 1, end: 25, why: 'imports' },
    ]);
  });
  it('puts a named definition too long to show after the short ones and two levels of their callees', () => {
    const all = [
      def('Command', 1, 1 + MAX_REGION_LINES * 4, 0, 'class'),
      def('configureOutput', 500, 505, 1, 'method'),
      def('_merge', 520, 525, 1, 'method'),
      def('_copy', 540, 545, 1, 'method'),
    ];
    const uses = [
      { name: '_merge', line: 502 },
      { name: '_copy', line: 522 },
    ];
    const r = candidateRegions(all, uses, 700, { lines: [], names: ['Command', 'configureOutput'], ranges: [] });
    expect(r.map((x) => [x.start, x.why])).toEqual([
      [500, 'name'],
      [520, 'callee'],
      [540, 'callee'],
      [1, 'name'],
    ]);
  });
  it('shows a named function longer than a region whole where it ranks, and its head again last', () => {
    const all = [def('listItem', 1000, 1240), def('endsWithBlankLine', 1300, 1310)];
    const r = candidateRegions(all, [], 1900, { lines: [], names: ['listItem', 'endsWithBlankLine'], ranges: [] });
    expect(r.map((x) => [x.start, x.end, x.why])).toEqual([
      [1000, 1240, 'name'],
      [1300, 1310, 'name'],
      [1000, 1000 + MAX_REGION_LINES - 1, 'name'],
      [1, 25, 'imports'],
    ]);
    // past MAX_FUNCTION_LINES only the head is offered
    const huge = candidateRegions([def('run', 100, 100 + MAX_FUNCTION_LINES + 10)], [], 2000, {
      lines: [],
      names: ['run'],
      ranges: [],
    });
    expect(huge.map((x) => [x.start, x.end])).toEqual([
      [100, 100 + MAX_REGION_LINES - 1],
      [1, 25],
    ]);
  });
  it('shows, right after a definition the test names by another spelling, the functions using it (not a long class)', () => {
    const all = [
      def('Command', 900, 1600, 0, 'class'),
      def('get_help_option_names', 1004, 1010, 1, 'method'),
      def('get_help_option', 1012, 1022, 1, 'method'),
      def('main', 1100, 1180, 1, 'method'),
      def('HelpOption', 3263, 3288, 0, 'class'),
      def('_complete', 53, 69),
    ];
    const uses = [
      { name: 'HelpOption', line: 1022 },
      { name: 'Command', line: 60 },
      { name: 'invoke', line: 1150 },
    ];
    const r = candidateRegions(all, uses, 3400, {
      lines: [],
      names: ['main', 'HelpOption', 'Command'],
      ranges: [],
      callersOf: ['HelpOption', 'Command'],
    });
    expect(r.map((x) => [x.start, x.why])).toEqual([
      [1100, 'name'],
      [3263, 'name'],
      [1012, 'caller'],
      [900, 'name'],
      [1, 'imports'],
    ]);
  });
  it('offers a hunk-sized window around each line asked for, after the named definitions', () => {
    const r = candidateRegions(defs, [], 300, { lines: [], names: ['c'], ranges: [], windows: [150] });
    expect(r.map((x) => [x.start, x.end, x.why])).toEqual([
      [200, 205, 'name'],
      [144, 156, 'window'],
      [1, 25, 'imports'],
    ]);
  });
  it('offers nothing when nothing targets the file', () => {
    expect(candidateRegions(defs, ids, 300, { lines: [], names: ['zzz'], ranges: [] })).toEqual([]);
  });
});

describe('mergeRanges and renderRegions', () => {
  it('merges touching and close ranges, sorted', () => {
    expect(
      mergeRanges([
        { start: 10, end: 12 },
        { start: 1, end: 3 },
        { start: 14, end: 20 },
        { start: 30, end: 31 },
      ]),
    ).toEqual([
      { start: 1, end: 3 },
      { start: 10, end: 20 },
      { start: 30, end: 31 },
    ]);
  });
  it('marks every region with its lines and every gap with an elision marker', () => {
    const lines = Array.from({ length: 10 }, (_, k) => `line ${k + 1}`);
    expect(
      renderRegions(lines, [
        { start: 3, end: 4 },
        { start: 8, end: 8 },
      ]),
    ).toBe(
      [
        '[... lines 1-2 not shown ...]',
        '[lines 3-4]',
        'line 3',
        'line 4',
        '[... lines 5-7 not shown ...]',
        '[lines 8-8]',
        'line 8',
        '[... lines 9-10 not shown ...]',
      ].join('\n'),
    );
    expect(renderRegions(lines, [{ start: 1, end: 10 }])).toBe(['[lines 1-10]', ...lines].join('\n'));
  });
});

describe('changed parts', () => {
  const defs: Definition[] = [
    { kind: 'function', name: 'a', qualifiedName: 'a', startLine: 3, endLine: 5, depth: 0, signature: 'def a()' },
    { kind: 'function', name: 'b', qualifiedName: 'b', startLine: 7, endLine: 9, depth: 0, signature: 'def b()' },
  ];
  it('names each changed definition, and merges neighbours', () => {
    expect(focusRegions(defs, 40, [{ start: 4, end: 4 }])).toEqual([{ start: 3, end: 5, label: 'a' }]);
    expect(focusRegions(defs, 40, [{ start: 4, end: 8 }])).toEqual([{ start: 3, end: 9, label: 'lines 3-9' }]);
    expect(focusRegions(defs, 40, [{ start: 30, end: 30 }])).toEqual([{ start: 18, end: 40, label: 'lines 18-40' }]);
  });
  it('replaces a cut part by its marker, whole or in regions', () => {
    const lines = Array.from({ length: 9 }, (_, k) => `l${k + 1}`);
    const cut = [{ start: 3, end: 5, marker: '[... a: changed ...]' }];
    expect(renderWhole(`${lines.join('\n')}\n`, lines, cut)).toBe('l1\nl2\n[... a: changed ...]\nl6\nl7\nl8\nl9\n');
    expect(renderRegions(lines, [{ start: 2, end: 6 }], cut)).toBe(
      '[... lines 1-1 not shown ...]\n[lines 2-6]\nl2\n[... a: changed ...]\nl6\n[... lines 7-9 not shown ...]',
    );
  });
});
