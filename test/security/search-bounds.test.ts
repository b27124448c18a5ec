// A repository with one line of 24 MB holding the string the model searches for (the shape that
// made the tree search quadratic in the line's length, with no deadline). Searching is bounded:
// each line is read once and cut, at most 16 MiB of git's output is read per search and every
// search of an answer shares a deadline, so the search ends at the long line with the hits found
// before it (the control, a small file earlier in the tree), and the fix lands.
import { describe, expect, it } from 'vitest';
import { answerWith, FIX_PATCH } from '../helpers/python-fixture.js';
import { attackFileHooks } from './support/hooks.js';
import { attack } from './support/record.js';
import { expectCanarySafe, expectNoLeftovers, runScene } from './support/scene.js';

const MARKER = 'hb_search_marker';
const ASK = `{"name": "search", "arguments": {"query": "${MARKER}"}}`;
const hooks = attackFileHooks();

describe('searching a tree with a line of 24 MB', () => {
  it('reads a bounded amount: the hits before the long line, then the fix lands', async () => {
    const long = `${'x'.repeat(12 * 1024 * 1024)}${MARKER}${'y'.repeat(12 * 1024 * 1024)}\n`;
    const s = await hooks.scene({
      files: { 'a_notes.py': `# ${MARKER}: the small file the search finds first\n`, 'z_blob.txt': long },
      answers: [{ answer: ASK }, { answer: answerWith(FIX_PATCH) }],
    });
    const out = await runScene(s);
    await attack(
      'a search whose string sits in one 24 MB line',
      'the search stops at its output cap with the hits before it; the run goes on and the fix lands',
      async () => {
        expect(out.state.status, out.result.stderr.slice(-2000)).toBe('stable');
        const ask = out.state.iterations[0]!.asks?.[0];
        expect(ask?.items[0]).toMatchObject({ kind: 'search', target: MARKER, hits: 1 });
        const reply = s.server.chatRequests()[1];
        const shown = JSON.stringify(reply?.body);
        expect(shown).toContain('a_notes.py:1:');
        expect(shown).not.toContain('z_blob.txt:1:');
        await expectNoLeftovers(out.runId);
        await expectCanarySafe(s, out);
        return `1 hit (a_notes.py), the 24 MB line not read past the cap; status ${out.state.status}`;
      },
    );
  });
});
