// File names are repository and model data: a patch that adds files named with HTML, a markdown
// link, an @mention and a closing keyword must not render, link, ping anyone or close an issue in
// PR_SUMMARY.md (the Changes list, the Iterations table) or in the branch's commit messages. The
// control: the files themselves land under their exact names, with the fix, in the same commit.
import { describe, expect, it } from 'vitest';
import { answerWith, FIX_PATCH } from '../helpers/python-fixture.js';
import { attackFileHooks } from './support/hooks.js';
import { attack } from './support/record.js';
import { expectCanarySafe, expectNoLeftovers, runScene } from './support/scene.js';

const NAMES = ['<img src=x onerror=alert(1)>.py', '[docs](https:evil.example/x).py', '@octocat.py', 'closes #1.py'];
const newFile = (path: string): string =>
  `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+X = 1\n`;

/** PR_SUMMARY.md outside its code spans, fences and own tags: what a renderer would act on. */
function outsideCode(md: string): string {
  return md
    .replace(/```[\s\S]*?```/g, '')
    .replace(/(`+)[\s\S]*?\1/g, '')
    .replace(/<\/?(details|summary|sub)>/g, '');
}

const hooks = attackFileHooks();

describe('file names in PR_SUMMARY.md and commit messages', () => {
  it('stay inert: no HTML, link, mention or closing keyword; the files land under their names', async () => {
    const s = await hooks.scene({
      answers: [{ answer: answerWith(`${NAMES.map(newFile).join('')}${FIX_PATCH}`) }],
    });
    const out = await runScene(s);
    await attack(
      'file names holding HTML, a link, @octocat and "closes #1"',
      'PR_SUMMARY.md and commit messages show them inert; the files and the fix land',
      async () => {
        expect(out.state.status, out.result.stderr.slice(-2000)).toBe('stable');
        const branch = out.state.branch!.commit;
        const tree = (await s.fx.repo.git(['ls-tree', '-r', '--name-only', '-z', branch])).split('\0');
        for (const n of NAMES) expect(tree).toContain(n);
        const messages = await s.fx.repo.git(['log', '--format=%B', `${out.state.repo.base_commit}..${branch}`]);
        expect(messages).toMatch(/\nHammer-Box-Iteration: 1\n/);
        expect(messages).not.toMatch(/<img|\]\(|https?:|@octocat|#1\b/);
        const outside = outsideCode(out.summary);
        expect(outside).not.toMatch(/(?<!\\)\]\(|https?:|@octocat|#1\b/);
        expect(outside).not.toMatch(/(?<!\\)[<[\]]|[^\\\n]>/);
        await expectNoLeftovers(out.runId);
        await expectCanarySafe(s, out);
        return `commit: ${messages.split('\n')[0]!.slice(0, 90)}`;
      },
    );
  });
});
