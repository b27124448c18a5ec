import { describe, expect, it } from 'vitest';
import { interpretAnswer } from '../../../src/loop/interpret-answer.js';
import { parsePatch, serializePatch } from '../../../src/patch/parse-patch.js';
import { validateDiff } from '../../../src/patch/validate-diff.js';

// A small deterministic generator of model-like garbage: diff fragments, fences and prose.
function* answers(count: number): Generator<string> {
  let seed = 42;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const pieces = [
    '```diff',
    '```',
    '````',
    '~~~',
    'diff --git a/x.py b/x.py',
    '--- a/x.py',
    '+++ b/x.py',
    '--- /dev/null',
    '+++ /dev/null',
    '@@ -1,2 +1,2 @@',
    '@@ -1 +1 @@',
    '@@ -0,0 +1,3 @@',
    ' context',
    '-old',
    '+new',
    '',
    '\\ No newline at end of file',
    'new file mode 100644',
    'new file mode 120000',
    'rename from a',
    'rename to ../b',
    'GIT binary patch',
    'literal 3',
    'Here is the fix:',
    'NO_CHANGES',
    '- bullet',
    '+ plus',
    '--- a/.git/config',
    '+++ b/.git/config',
    '\r',
    '\u001b[31m',
  ];
  for (let k = 0; k < count; k++) {
    const lines: string[] = [];
    const n = 1 + rnd(25);
    for (let j = 0; j < n; j++) lines.push(pieces[rnd(pieces.length)]!);
    yield lines.join(rnd(4) === 0 ? '\r\n' : '\n');
  }
}

describe('extraction and validation on arbitrary answers', () => {
  it('never throw, and an accepted patch is always made of whole lines of the answer (or their header and context repairs), re-parses to itself, and every candidate passes vetting', async () => {
    let accepted = 0;
    for (const answer of answers(5000)) {
      const r = await interpretAnswer(
        answer,
        { maxDiffLines: 500 },
        async (paths) => new Map(paths.map((p) => [p, { kind: 'text' as const, content: 'context\nold\n' }])),
      );
      expect(['diff', 'no_changes', 'unusable']).toContain(r.kind);
      if (r.kind !== 'diff') continue;
      accepted++;
      const source = new Set(answer.replace(/\r\n?/g, '\n').split('\n'));
      for (const line of r.patch.replace(/\n$/, '').split('\n')) {
        const original = line
          .replace(/^(--- |\+\+\+ )[ab]\//, '$1')
          .replace(/^diff --git a\/(\S+) b\//, 'diff --git $1 ');
        const repairedHeader = /^(--- |\+\+\+ |diff --git )/.test(line);
        expect(source.has(line) || source.has(original) || source.has(line.slice(1)) || repairedHeader).toBe(true);
      }
      for (const f of r.files) {
        for (const p of [f.oldPath, f.newPath]) if (p !== null) expect(p.split('/')).not.toContain('.git');
      }
      expect(serializePatch(parsePatch(r.patch, { overflow: 'hunk' }).files)).toBe(r.patch);
      for (const c of r.candidates) expect(validateDiff(c.patch, { maxDiffLines: 500 }).ok).toBe(true);
    }
    expect(accepted).toBeGreaterThan(50);
  });
});
