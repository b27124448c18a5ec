// The plan: the order candidates are given room in, and whole files against regions.
import { describe, expect, it } from 'vitest';
import { planContext, rankCandidates, renderedLength, type Candidate } from '../../../src/context/plan.js';
import { renderRegions } from '../../../src/context/regions.js';
import { analyzeSource } from '../../../src/syntax/index.js';

const BUDGET = { chars: 48_000, fileMaxBytes: 16_000, mapChars: 0 };

function candidate(path: string, over: Partial<Candidate> = {}): Candidate {
  return {
    path,
    reason: 'import',
    detail: '',
    distance: 2,
    order: 0,
    text: 'x = 1\n',
    truncated: false,
    analysis: null,
    relevant: true,
    score: 2.75,
    targets: { lines: [], names: [], ranges: [] },
    focusNames: [],
    changedRanges: [],
    changed: false,
    test: false,
    ...over,
  };
}

describe('rankCandidates', () => {
  it('orders files of the same worth by where the call chain reaches them, before distance', () => {
    const ranked = rankCandidates(
      [
        candidate('compiler.go', { chainOrder: 9, distance: 1 }),
        candidate('config.go', { chainOrder: 1, distance: 2 }),
        candidate('checker.go', { chainOrder: 3, distance: 2 }),
        candidate('other.go', { distance: 1 }),
        candidate('deeper.go', { chainOrder: 0, score: 2.5 }),
      ],
      new Map(),
    );
    expect(ranked.map((c) => c.path)).toEqual(['config.go', 'checker.go', 'compiler.go', 'other.go', 'deeper.go']);
  });
});

describe('planContext', () => {
  it('shows a file only the call chain leads to whole when small, else as the regions of the chain', async () => {
    const fns = Array.from({ length: 400 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`).join('\n');
    const text = `${fns}\ndef on_chain(x):\n    return x  # the chain\n`;
    expect(text.length).toBeGreaterThan(BUDGET.fileMaxBytes / 2);
    expect(text.length).toBeLessThan(BUDGET.fileMaxBytes);
    const analysis = await analyzeSource('python', text);
    const targets = { lines: [], names: ['on_chain'], ranges: [] };
    const plan = planContext(
      [
        candidate('only_chain.py', { text, analysis, targets, onlyChain: true }),
        candidate('led_to.py', { text, analysis, targets }),
      ],
      BUDGET,
      new Map(),
    );
    expect(plan.files.map((f) => [f.path, f.whole])).toEqual([
      ['only_chain.py', false],
      ['led_to.py', true],
    ]);
    expect(plan.files[0]!.text).toContain('# the chain');
  });
});

describe('renderedLength', () => {
  it('is the length of the rendered regions, without rendering them', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1} ${'x'.repeat(i % 7)}`);
    const before = [0];
    for (const l of lines) before.push(before.at(-1)! + l.length);
    for (const ranges of [
      [{ start: 1, end: 40 }],
      [{ start: 3, end: 5 }],
      [
        { start: 1, end: 2 },
        { start: 10, end: 12 },
        { start: 40, end: 40 },
      ],
    ]) {
      expect(renderedLength(before, lines.length, ranges)).toBe(renderRegions(lines, ranges).length);
    }
  });
});
