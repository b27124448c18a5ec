import { afterEach, describe, expect, it } from 'vitest';
import type { Candidate } from '../../../src/edits/index.js';
import { resolveUserRepo, Workbench } from '../../../src/git/index.js';
import { gateCandidates } from '../../../src/loop/syntax-gate-run.js';
import { createFixtureRepo } from '../../helpers/fixture-repo.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function workbench(): Promise<Workbench> {
  const repo = await createFixtureRepo({ files: { 'calc.py': 'def add(a, b):\n    return a - b\n' } });
  cleanups.push(() => repo.cleanup());
  const user = await resolveUserRepo(repo.path, 'main');
  const wb = await Workbench.create(user, user.baseCommit, {
    identity: { name: 'hammer-box', email: 'hammer-box@localhost' },
  });
  cleanups.push(() => wb.dispose());
  return wb;
}

const patchTo = (line: string): string =>
  `diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+${line}\n`;
const CLEAN = patchTo('    return a + b');
const BROKEN = patchTo('    return a + (b');
const STALE = patchTo('    return a * b').replace('-    return a - b', '-    return a / b');

const as = (rung: Candidate['rung'], patch: string): Candidate => ({ rung, flags: [], patch });

describe('gateCandidates', () => {
  it('stops at the first candidate git applies here without a new syntax error: later ones are not sent', async () => {
    const wb = await workbench();
    const out = await gateCandidates([as('as_is', CLEAN), as('recount', BROKEN)], wb, { enabled: true });
    expect(out.kept.map((c) => c.rung)).toEqual(['as_is']);
    expect(out.record).toEqual({ on: true, files: ['calc.py'], skipped: [] });
    expect(out.failure).toBeNull();
  });

  it('leaves out a candidate that adds a syntax error and keeps the clean one after it', async () => {
    const wb = await workbench();
    const out = await gateCandidates([as('as_is', BROKEN), as('recount', CLEAN)], wb, { enabled: true });
    expect(out.kept.map((c) => c.rung)).toEqual(['recount']);
    expect(out.record.skipped).toMatchObject([{ rung: 'as_is', path: 'calc.py', line: 2 }]);
    expect(out.failure).toMatchObject({ kind: 'syntax_error', every: false, path: 'calc.py' });
  });

  it("keeps a candidate git refuses here (the sandbox's check says why) and goes on to the next", async () => {
    const wb = await workbench();
    const out = await gateCandidates([as('as_is', STALE), as('recount', CLEAN), as('whitespace', CLEAN)], wb, {
      enabled: true,
    });
    expect(out.kept.map((c) => c.rung)).toEqual(['as_is', 'recount']);
  });

  it('names the first error when every candidate adds one', async () => {
    const wb = await workbench();
    const out = await gateCandidates([as('as_is', BROKEN)], wb, { enabled: true });
    expect(out.kept).toEqual([]);
    expect(out.failure).toMatchObject({ kind: 'syntax_error', every: true, what: 'the edit' });
  });

  it('keeps every candidate when the gate is off', async () => {
    const wb = await workbench();
    const out = await gateCandidates([as('as_is', BROKEN), as('recount', CLEAN)], wb, { enabled: false });
    expect(out.kept).toHaveLength(2);
    expect(out.record).toEqual({ on: false, files: [], skipped: [] });
  });
});
