import { describe, expect, it } from 'vitest';
import { cutTestOutput, omittedMarker, parseTestOutput, type CutLimits } from '../../../src/test-output/index.js';
import { fixture } from './fixtures.js';

const LIMITS: CutLimits = { headLines: 40, tailLines: 80, failureLines: 60, maxFailures: 5 };

function cut(text: string, limits: CutLimits = LIMITS): string {
  return cutTestOutput(text, parseTestOutput(text), limits);
}

/** Check a cut is honest: kept lines are the original's, in order, and each marker counts exactly the lines it replaced. */
function expectFaithful(original: string, result: string): void {
  const lines = original.replace(/\n$/, '').split('\n');
  let at = 0;
  for (const line of result.split('\n')) {
    const marker = /^\[\.\.\. (\d+) lines? omitted \.\.\.\]$/.exec(line);
    if (marker !== null) {
      const n = Number(marker[1]);
      expect(n).toBeGreaterThan(1);
      at += n;
    } else {
      expect(line).toBe(lines[at]);
      at++;
    }
  }
  expect(at).toBe(lines.length);
}

describe('cutTestOutput', () => {
  it('keeps `not ok 8` at line 108 of 463 whole, with true counts in the markers', () => {
    const text = fixture('node-20-tap-long.txt');
    const result = cut(text);
    expectFaithful(text, result);
    const kept = result.split('\n');
    const at = kept.indexOf('not ok 8 - parses row 8');
    expect(at).toBeGreaterThan(0);
    // the whole YAML block, its location and diff, up to its closing `...`
    expect(kept.slice(at, at + 38).join('\n')).toContain("location: '/tmp/fnd-cap/node-long/test/rows.test.js:7:3'");
    expect(kept).toContain("    -   'b,c',");
    expect(kept[at - 2]).toBe(omittedMarker(106 - 40));
    expect(kept.filter((l) => l.startsWith('[...'))).toEqual([omittedMarker(66), omittedMarker(463 - 80 - 144)]);
    expect(kept).toHaveLength(40 + 1 + 38 + 1 + 80);
  });

  it('keeps every failure block of a long pytest run and the short summary', () => {
    const text = fixture('pytest-9-default.txt');
    const result = cut(text, { headLines: 5, tailLines: 3, failureLines: 60, maxFailures: 10 });
    expectFaithful(text, result);
    for (const header of ['test_add', 'TestStack.test_lifo', 'test_load_missing']) {
      expect(result).toContain(`_ ${header} _`);
    }
    expect(result).toContain('FAILED tests/test_io.py::test_load_missing - FileNotFoundError: [Errno 2] No ...');
    expect(result).toContain('tests/test_calc.py:42: ');
  });

  it('keeps the first lines of a failure longer than the cap, and says how many of the rest were left out', () => {
    const text = fixture('cargo-1.95-backtrace.txt');
    const result = cut(text, { headLines: 2, tailLines: 2, failureLines: 6, maxFailures: 10 });
    expectFaithful(text, result);
    const kept = result.split('\n');
    const at = kept.indexOf('---- tests::parses_spaces stdout ----');
    expect(kept.slice(at, at + 6)).toEqual(text.split('\n').slice(13, 19));
    expect(kept[at + 6]).toMatch(/^\[\.\.\. \d+ lines omitted \.\.\.\]$/);
  });

  it('keeps at most maxFailures blocks', () => {
    const text = fixture('pytest-7-default.txt');
    const result = cut(text, { headLines: 0, tailLines: 0, failureLines: 100, maxFailures: 2 });
    expectFaithful(text, result);
    expect(result).toContain('_ test_add _');
    expect(result).toContain('_ test_add_negative _');
    expect(result).not.toContain('_ test_load_missing _');
  });

  it('cuts output of no known runner to its head and tail', () => {
    const text = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n');
    const result = cut(text, { headLines: 3, tailLines: 2, failureLines: 60, maxFailures: 5 });
    expect(result).toBe(['line 1', 'line 2', 'line 3', omittedMarker(295), 'line 299', 'line 300'].join('\n'));
  });

  it('never writes a marker for a single line, and leaves short output alone', () => {
    const text = Array.from({ length: 6 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(cut(text, { headLines: 3, tailLines: 2, failureLines: 60, maxFailures: 5 })).toBe(text);
    expect(cut(`${text}\n`, LIMITS)).toBe(text);
    expect(omittedMarker(1)).toBe('[... 1 line omitted ...]');
  });

  it('is faithful for every captured output', () => {
    for (const name of [
      'pytest-7-collect-error.txt',
      'unittest-py3.11-v.txt',
      'node-20-spec.txt',
      'node-20-tap.txt',
      'jest-30.txt',
      'vitest-4-color.txt',
      'mocha-11.txt',
      'go-1.19-v.txt',
      'cargo-1.95-no-fail-fast.txt',
    ]) {
      const text = fixture(name);
      expectFaithful(text, cut(text, { headLines: 4, tailLines: 4, failureLines: 8, maxFailures: 3 }));
    }
  });
});
