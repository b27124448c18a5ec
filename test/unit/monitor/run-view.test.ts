// What the pages compute from a state: totals, the timeline, and values shown with care.
import { describe, expect, it } from 'vitest';
import { artifactsOf, directiveLine, displayUrl, runFigures, timeline } from '../../../src/monitor/run-view.js';
import { iteration, makeState, testRecord } from '../state/make-state.js';

const T0 = '2026-11-22T14:05:01.000Z';

describe('runFigures', () => {
  it('sums the tokens the server reported, the model time, and the wall time', () => {
    const s = makeState({
      updated_at: '2026-11-22T14:06:01.000Z',
      iterations: [
        { ...iteration(1, 'rejected'), answer: { ...iteration(1, 'rejected').answer!, prompt_tokens: 100 } },
        iteration(2, 'applied'),
        { ...iteration(3, null), answer: null },
      ],
    });
    expect(runFigures(s)).toEqual({ iterations: 2, tokensIn: 100, tokensOut: 240, wallMs: 60_000, modelMs: 10_000 });
    expect(runFigures(makeState()).tokensIn).toBeNull();
  });
});

describe('timeline', () => {
  it('places run phases and iterations from the run start, an iteration ending at its last phase', () => {
    const s = makeState({
      updated_at: '2026-11-22T14:05:20.000Z',
      phases: { prepare: { status: 'done', started_at: T0, duration_ms: 800 } },
      iterations: [iteration(1, 'applied')],
    });
    const t = timeline(s);
    expect(t.segments).toEqual([
      { kind: 'phase', label: 'prepare', startMs: 0, durationMs: 800, status: 'done', n: null },
      { kind: 'iteration', label: 'iteration 1', startMs: 0, durationMs: 5000, status: 'applied', n: 1 },
    ]);
    expect(t.totalMs).toBe(19_000);
  });

  it('calls an iteration without an outcome running', () => {
    const s = makeState({ iterations: [{ ...iteration(1, null), phases: {} }] });
    expect(timeline(s).segments[0]).toMatchObject({ status: 'running', durationMs: 0 });
  });
});

describe('displayUrl', () => {
  it('drops a user and password from a URL, and leaves others alone', () => {
    expect(displayUrl('http://user:secret@gpu:11434/v1')).toBe('http://gpu:11434/v1');
    expect(displayUrl('http://localhost:11434')).toBe('http://localhost:11434');
    expect(displayUrl('not a url //me:pw@host')).toBe('not a url //host');
  });
});

describe('directiveLine and artifactsOf', () => {
  it("takes the directive's first line with text", () => {
    expect(
      directiveLine(makeState({ directive: { path: 'd', text: '\n\n  Fix it\nmore', sha256: 'd'.repeat(64) } })),
    ).toBe('  Fix it');
  });

  it('lists every artifact the state names, and only those', () => {
    const it1 = iteration(1, 'applied', { patch: 'a', test: testRecord(1, { artifact: 'iter-01-test.log' }) });
    const s = makeState({
      iterations: [
        {
          ...it1,
          patch: { ...it1.patch!, applied_artifact: 'iter-01-applied.patch' },
          asks: [
            {
              answer_artifact: 'iter-01-ask-1-answer.md',
              reply_artifact: 'iter-01-ask-1-reply.md',
              items: [],
              chars: 0,
            },
          ],
        },
      ],
    });
    expect([...artifactsOf(s)].sort()).toEqual(
      [
        'baseline-test.log',
        'iter-01-prompt.md',
        'iter-01-answer.md',
        'iter-01.patch',
        'iter-01-applied.patch',
        'iter-01-test.log',
        'iter-01-ask-1-answer.md',
        'iter-01-ask-1-reply.md',
      ].sort(),
    );
  });
});
