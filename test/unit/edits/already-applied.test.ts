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
    expect(sr.ok).toBe(false);
    expect(!sr.ok && sr.failures[0]).toMatchObject({ kind: 'already_applied' });
  });

  it('refuses a SEARCH/REPLACE block whose REPLACE lines are already where it would put them', () => {
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
      ok: false,
      failures: [{ path: 'session.py', what: 'SEARCH/REPLACE block 1', kind: 'already_applied', at: 5, count: 2 }],
    });
  });

  it('still applies an edit whose new lines are not there yet, and one that adds a line elsewhere in the file', async () => {
    const answer = diff('@@ -6,1 +6,2 @@\n         timeout=None,\n+        stream=False,\n');
    const r = await interpretAnswer(answer, { maxDiffLines: 500 }, read(SESSION));
    expect(r.kind === 'diff' && r.candidates.map((c) => c.rung)).toEqual(['as_is', 'whitespace', 'relocated']);
  });
});
