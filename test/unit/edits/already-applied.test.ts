import { describe, expect, it } from 'vitest';
import { applySearchEdits, renderFailures, splitFileText } from '../../../src/edits/index.js';
import { interpretAnswer } from '../../../src/loop/interpret-answer.js';

const SESSION = `class Session:
    def request(
        self,
        method,
        url,
        timeout=None,
        verify=True,
    ):
        """Send a request."""
        return self.send(method, url)
`;

const read = (content: string) => async () => new Map([['session.py', { kind: 'text' as const, content }]]);
const diff = (body: string): string => `\`\`\`diff\n--- a/session.py\n+++ b/session.py\n${body}\`\`\`\n`;

describe('edits already applied', () => {
  it('refuses a hunk whose added line already follows its context, at every rung, and says so', async () => {
    // only leading context: git (and relocation) would put a second "timeout=None," after "url,"
    const answer = diff('@@ -5,1 +5,2 @@\n         url,\n+        timeout=None,\n');
    const r = await interpretAnswer(answer, { maxDiffLines: 500 }, read(SESSION));
    expect(r.kind).toBe('diff');
    if (r.kind !== 'diff') return;
    expect(r.candidates).toEqual([]);
    expect(r.failures).toEqual([
      { path: 'session.py', what: 'hunk 1 (@@ -5,1 +5,2 @@)', kind: 'already_applied', at: 5, count: 2 },
    ]);
    expect(renderFailures(r.failures)).toMatch(
      /^session\.py, hunk 1 \(@@ -5,1 \+5,2 @@\): it is already applied: its lines are in session\.py at lines 5-6/,
    );
  });

  it('refuses a hunk whose removed lines are gone and whose new lines are there', async () => {
    const answer = diff(
      '@@ -4,3 +4,4 @@\n         method,\n         url,\n+        timeout=None,\n         verify=True,\n',
    );
    const r = await interpretAnswer(answer, { maxDiffLines: 500 }, read(SESSION));
    expect(r.kind === 'diff' && r.candidates).toEqual([]);
    expect(r.kind === 'diff' && r.failures[0]).toMatchObject({ kind: 'already_applied', at: 4, count: 4 });
  });

  it('never copies lines around the match when edge context is dropped (drifted edges, change already there)', async () => {
    // the leading context drifted (a comment the file never had), so only the trailing context
    // matches: dropping the leading lines would put "timeout=None," in a second time
    const answer = diff(
      '@@ ... @@\n     def request(\n         self,  # the session\n         method,\n         url,\n+        timeout=None,\n         verify=True,\n     ):\n',
    );
    const r = await interpretAnswer(answer, { maxDiffLines: 500 }, read(SESSION));
    expect(r.kind).toBe('diff');
    if (r.kind !== 'diff') return;
    expect(r.candidates).toEqual([]);
    expect(r.failures[0]?.kind).toBe('already_applied');
    const sr = applySearchEdits(
      'session.py',
      splitFileText(SESSION),
      [
        {
          what: 'hunk 1',
          search: [
            '    def request(',
            '        self,  # the session',
            '        method,',
            '        url,',
            '        verify=True,',
            '    ):',
          ],
          replace: [
            '    def request(',
            '        self,  # the session',
            '        method,',
            '        url,',
            '        timeout=None,',
            '        verify=True,',
            '    ):',
          ],
        },
      ],
      'context',
    );
    // left out, never inserted: the file stays as it was
    expect(sr.ok && sr.skipped[0]).toMatchObject({ kind: 'already_applied' });
    expect(sr.ok && sr.text).toEqual(splitFileText(SESSION));
  });

  it('leaves out a SEARCH/REPLACE block whose REPLACE lines are already where it would put them', () => {
    const r = applySearchEdits(
      'session.py',
      splitFileText(SESSION),
      [
        {
          what: 'SEARCH/REPLACE block 1',
          search: ['        url,'],
          replace: ['        url,', '        timeout=None,'],
        },
      ],
      'blank',
    );
    expect(r).toEqual({
      ok: true,
      text: splitFileText(SESSION),
      created: false,
      adjusted: false,
      skipped: [{ path: 'session.py', what: 'SEARCH/REPLACE block 1', kind: 'already_applied', at: 5, count: 2 }],
    });
  });

  it('still applies an edit whose new lines are not there yet, and one that adds a line elsewhere in the file', async () => {
    const answer = diff('@@ -6,1 +6,2 @@\n         timeout=None,\n+        stream=False,\n');
    const r = await interpretAnswer(answer, { maxDiffLines: 500 }, read(SESSION));
    expect(r.kind === 'diff' && r.candidates.map((c) => c.rung)).toEqual(['as_is', 'whitespace', 'relocated']);
  });
});

const GO = `package uuid

// NewV7 returns a Version 7 UUID.
// see function  NewV7 and NewV7FromReader
func NewV7() (UUID, error) {
	return NewV7FromReader(rand.Reader)
}

func NewV7FromReader(r io.Reader) (UUID, error) {
	uuid, err := NewRandomFromReader(r)
	if err != nil {
		return uuid, nil
	}
	return uuid, nil
}
`;
const COMMENT_HUNK =
  '@@ -3,3 +3,3 @@\n // NewV7 returns a Version 7 UUID.\n-// see function  NewV7 and NewV7FromReader\n+// see function NewV7 and NewV7FromReader\n func NewV7() (UUID, error) {\n';
const ERR_HUNK =
  '@@ -10,4 +10,4 @@\n 	uuid, err := NewRandomFromReader(r)\n 	if err != nil {\n-		return uuid, nil\n+		return uuid, err\n 	}\n';
const goDiff = (body: string): string => `\`\`\`diff\n--- a/uuid.go\n+++ b/uuid.go\n${body}\`\`\`\n`;
const readGo = (content: string) => async () => new Map([['uuid.go', { kind: 'text' as const, content }]]);

describe('already applied, compared exactly', () => {
  it('applies a hunk that changes only whitespace: it is a change, not one already applied', async () => {
    const r = await interpretAnswer(goDiff(COMMENT_HUNK + ERR_HUNK), { maxDiffLines: 500 }, readGo(GO));
    expect(r.kind === 'diff' && r.failures).toEqual([]);
    expect(r.kind === 'diff' && r.candidates[0]?.rung).toBe('as_is');
    // in strict mode too
    const strict = await interpretAnswer(goDiff(COMMENT_HUNK), { maxDiffLines: 500, strict: true }, readGo(GO));
    expect(strict.kind === 'diff' && strict.candidates.map((c) => c.rung)).toEqual(['as_is']);
  });

  it('still takes a whitespace-only change that is in the file exactly as already applied', async () => {
    const done = GO.replace('function  NewV7', 'function NewV7');
    const r = await interpretAnswer(goDiff(COMMENT_HUNK), { maxDiffLines: 500 }, readGo(done));
    expect(r.kind === 'diff' && r.candidates).toEqual([]);
    expect(r.kind === 'diff' && r.failures).toEqual([
      { path: 'uuid.go', what: 'hunk 1 (@@ -3,3 +3,3 @@)', kind: 'already_applied', at: 3, count: 3 },
    ]);
  });

  it('leaves out a hunk already applied and applies the others, on the host-built rungs only', async () => {
    const done = GO.replace('function  NewV7', 'function NewV7');
    const r = await interpretAnswer(goDiff(COMMENT_HUNK + ERR_HUNK), { maxDiffLines: 500 }, readGo(done));
    if (r.kind !== 'diff') throw new Error(r.kind);
    // git would fail on the hunk already there, or insert it a second time: no git rung
    expect(r.candidates.map((c) => c.rung)).toEqual(['relocated']);
    expect(r.candidates[0]!.patch).toContain('-\t\treturn uuid, nil\n+\t\treturn uuid, err\n');
    expect(r.candidates[0]!.patch).not.toContain('see function');
    expect(r.fixes).toContain('uuid.go, hunk 1 (@@ -3,3 +3,3 @@) is already applied (lines 3-5); left out');
    // strict mode has only the diff as written, which would not apply: refused, naming the hunk
    const strict = await interpretAnswer(
      goDiff(COMMENT_HUNK + ERR_HUNK),
      { maxDiffLines: 500, strict: true },
      readGo(done),
    );
    expect(strict.kind === 'diff' && strict.candidates).toEqual([]);
    expect(strict.kind === 'diff' && strict.failures.map((f) => f.kind)).toEqual(['already_applied']);
  });

  it('does not take an added line the file has nested under the line the hunk removes as already applied', async () => {
    const file = [
      'def expand(args):',
      '    out = []',
      '    for tp in args:',
      '        if isinstance(tp, TensorProduct):',
      '            tp = tp.expand()',
      '        out.append(tp)',
      '    return out',
      '',
    ].join('\n');
    const answer =
      '```diff\n--- a/expand.py\n+++ b/expand.py\n@@ -4,2 +4,2 @@\n-        if isinstance(tp, TensorProduct):\n+        tp = tp.expand()\n         out.append(tp)\n```\n';
    const read = async () => new Map([['expand.py', { kind: 'text' as const, content: file }]]);
    const r = await interpretAnswer(answer, { maxDiffLines: 500 }, read);
    if (r.kind !== 'diff') throw new Error(r.kind);
    expect(r.failures).toEqual([
      expect.objectContaining({
        kind: 'not_found',
        missing: [],
        skipped: [{ line: 5, text: '            tp = tp.expand()' }],
      }),
    ]);
    // no host-built rung places it (git's own would fail on the context)
    expect(r.candidates.map((c) => c.rung)).toEqual(['as_is', 'whitespace']);
    expect(renderFailures(r.failures)).toMatch(
      /^expand\.py, hunk 1 \(@@ -4,2 \+4,2 @@\): its lines \(context and removed\) were not found in the current file\.\nEach line exists, but not next to each other: line 5 of expand\.py stands between them, which your lines leave out:\n {16}tp = tp\.expand\(\)\nThe closest region of expand\.py/,
    );
  });
});
