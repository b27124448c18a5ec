// The whole edit corpus: extraction and vetting, the host-built candidates (relocated hunks and
// search/replace) applied in memory, and the full ladder with git's checks run on the host.
import { applyPatch, parsePatch } from 'diff';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectCutOff, parseAnswer, renderFailures, rungNumber } from '../../../src/edits/index.js';
import { validateDiff } from '../../../src/patch/validate-diff.js';
import { loadEditCorpus, type EditCase } from '../../fixtures/edits/corpus.js';
import { runLadderOnHost, type LadderOutcome } from '../../fixtures/edits/host-ladder.js';

let corpus: EditCase[];
const outcomes = new Map<string, LadderOutcome>();
beforeAll(async () => {
  corpus = await loadEditCorpus();
  for (const c of corpus) outcomes.set(c.name, await runLadderOnHost(c));
  // git runs per case: on a loaded 2-core machine that takes far longer than vitest's default
}, 180_000);

/** Apply a candidate (a git-style multi-file diff) to a tree in memory with jsdiff. */
function applyInMemory(patch: string, before: ReadonlyMap<string, string>): Map<string, string> | null {
  const tree = new Map(before);
  for (const p of parsePatch(patch)) {
    const from = p.oldFileName === '/dev/null' ? null : p.oldFileName!.replace(/^a\//, '');
    const to = p.newFileName === '/dev/null' ? null : p.newFileName!.replace(/^b\//, '');
    const content = from === null ? '' : tree.get(from);
    if (content === undefined) return null;
    const next = p.hunks.length === 0 ? content : applyPatch(content, p);
    if (next === false) return null;
    if (from !== null) tree.delete(from);
    if (to !== null) tree.set(to, next);
  }
  return new Map([...tree].sort(([a], [b]) => a.localeCompare(b)));
}

describe('the edit corpus', () => {
  it('holds at least 40 answers, every rung, and refusals of each kind', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    const rungs = new Set(corpus.map((c) => c.rung));
    for (const r of ['as_is', 'recount', 'whitespace', 'relocated', 'search_replace']) expect(rungs).toContain(r);
    expect(corpus.filter((c) => c.expect === 'unusable').length).toBeGreaterThanOrEqual(6);
    expect(corpus.filter((c) => c.expect === 'rejected').length).toBeGreaterThanOrEqual(4);
  });

  it('extracts edits from every answer that is not refused, and refuses the others saying why', () => {
    for (const c of corpus) {
      // a cut-off answer is refused before it is parsed (see the next test)
      if (detectCutOff(c.answer, c.finishReason) !== null) continue;
      const r = parseAnswer(c.answer, { format: c.format, strict: false });
      if (c.expect === 'unusable' && r.kind === 'unusable') {
        expect(r.reason, c.name).toMatch(c.reason!);
        continue;
      }
      expect(r.kind, c.name).toBe('edits');
    }
  });

  it('vets every candidate: each passes validateDiff, and refused answers produce none', () => {
    for (const c of corpus) {
      const o = outcomes.get(c.name)!;
      if (c.expect === 'unusable') {
        expect(o.outcome, c.name).toBe('unusable');
        expect(o.interpretation.kind === 'unusable' && o.interpretation.reason, c.name).toMatch(c.reason!);
        if (c.notReason && o.interpretation.kind === 'unusable')
          expect(o.interpretation.reason, c.name).not.toMatch(c.notReason);
        continue;
      }
      expect(o.interpretation.kind, c.name).toBe('diff');
      if (o.interpretation.kind !== 'diff') continue;
      for (const cand of o.interpretation.candidates)
        expect(validateDiff(cand.patch, { maxDiffLines: 500 }).ok, `${c.name} ${cand.rung}`).toBe(true);
    }
  });

  it('builds, on the host, a relocated or search/replace patch that produces exactly the expected files (dropped only when it equals the diff as written)', () => {
    for (const c of corpus.filter((x) => x.expect === 'applied')) {
      const o = outcomes.get(c.name)!;
      if (o.interpretation.kind !== 'diff') throw new Error(c.name);
      const cands = o.interpretation.candidates;
      const built =
        cands.find((x) => x.rung === 'relocated' || x.rung === 'search_replace') ??
        cands.find((x) => x.rung === 'as_is');
      expect(built, `${c.name}: no host-built candidate`).toBeDefined();
      expect(applyInMemory(built!.patch, c.before), c.name).toEqual(c.after);
    }
  });

  it('applies every case the ladder must apply, at its rung, to exactly the expected files (git on the host)', () => {
    for (const c of corpus.filter((x) => x.expect === 'applied')) {
      const o = outcomes.get(c.name)!;
      expect({ name: c.name, outcome: o.outcome, rung: o.rung }).toEqual({
        name: c.name,
        outcome: 'applied',
        rung: c.rung,
      });
      expect(o.files, c.name).toEqual(c.after);
    }
  });

  it('applies nothing for the cases that must be rejected, and says which edit failed and why', () => {
    for (const c of corpus.filter((x) => x.expect === 'rejected')) {
      const o = outcomes.get(c.name)!;
      expect(o.outcome, c.name).toBe('rejected');
      if (o.interpretation.kind !== 'diff') throw new Error(c.name);
      const feedback = renderFailures([...o.interpretation.failures, ...(o.gate ? [o.gate] : [])]);
      expect(feedback, c.name).toMatch(c.reason!);
      if (c.notReason) expect(feedback, c.name).not.toMatch(c.notReason);
    }
  });

  it('refuses every cut-off answer the same with no finish reason as with "length", wherever its text shows the cut', async () => {
    const cut = corpus.filter((c) => {
      const i = outcomes.get(c.name)!.interpretation;
      return i.kind === 'unusable' && i.cutOff !== undefined;
    });
    expect(cut.length).toBeGreaterThanOrEqual(20);
    const onlyTheServerKnows: string[] = [];
    for (const c of cut) {
      const silent = await runLadderOnHost({ ...c, finishReason: undefined });
      const length = await runLadderOnHost({ ...c, finishReason: 'length' });
      expect(length.interpretation, c.name).toMatchObject({ kind: 'unusable', cutOff: { by: 'server' } });
      if (silent.interpretation.kind === 'unusable' && silent.interpretation.cutOff !== undefined) {
        // the same place named either way
        expect(length.interpretation.kind === 'unusable' && length.interpretation.cutOff?.where, c.name).toBe(
          silent.interpretation.cutOff.where,
        );
      } else onlyTheServerKnows.push(c.name);
    }
    // a diff that is whole and closed, then prose cut off: nothing in the text shows the cut
    expect(onlyTheServerKnows).toEqual(['cut-server-length-prose-after']);
  }, 180_000);

  it('in strict mode applies only what git takes as written, and refuses SEARCH/REPLACE answers', async () => {
    for (const c of corpus) {
      const o = await runLadderOnHost(c, { strict: true });
      if (c.expect === 'applied' && c.rung === 'as_is') {
        expect({ name: c.name, rung: o.rung }).toEqual({ name: c.name, rung: 'as_is' });
        expect(o.files, c.name).toEqual(c.after);
      } else {
        expect(o.outcome, c.name).not.toBe('applied');
        // the one rung strict mode has, or none when the host refused the edit before git
        if (o.interpretation.kind === 'diff')
          expect(
            o.interpretation.candidates.filter((x) => x.rung !== 'as_is'),
            c.name,
          ).toEqual([]);
      }
    }
  }, 180_000);

  it("orders each case's candidates by rung", () => {
    for (const c of corpus) {
      const o = outcomes.get(c.name)!;
      if (o.interpretation.kind !== 'diff') continue;
      const numbers = o.interpretation.candidates.map((x) => rungNumber(x.rung));
      expect(numbers, c.name).toEqual([...numbers].sort((a, b) => a - b));
    }
  });
});
