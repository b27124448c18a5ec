// A title from a model or a plan goes to the PR title, PR_SUMMARY.md's heading, `gh`/`glab`
// arguments and (built the same way) commit subjects: inertTitle leaves it readable while no HTML,
// mention, issue reference or closing keyword, and no link survives in plain text or in markdown.
import { describe, expect, it } from 'vitest';
import { prTitle } from '../../../src/report/pr-title.js';
import { inertTitle } from '../../../src/text/title.js';
import { renderPrSummary } from '../../../src/report/pr-summary.js';
import { makeState } from '../state/make-state.js';

/** What GitHub or GitLab would act on in a title (plain text, or a markdown heading). */
const LIVE = [
  /[<>]/, // HTML, <autolinks>
  /@[A-Za-z0-9_-]/, // @mention, a team, an e-mail address
  /#\d/, // #1, owner/repo#1 (closes #1)
  /(?:^|[^\w])#[A-Za-z]/, // a smart-commit command (#close)
  /\bGH-\d/i,
  /(?:^|\s)[!&]\d/, // GitLab merge requests and epics
  /[a-z][a-z0-9+.-]*:\/\//i, // a URL
  /\bwww\./i,
  /\]\(/, // a markdown link or image
  /&#?\w+;/, // an entity that renders as @ or #
];

const HOSTILE = [
  'Fix add, closes #1 cc @octocat <img src=x onerror=alert(1)>',
  'fixes owner/repo#12 and GH-7, resolves https://github.com/o/r/issues/3',
  'see [the docs](https://evil.example/x) and ![p](http://evil.example/p.png) www.evil.example',
  'Closes: #9; mail admin@evil.example; ping @org/team; JRA-34 #close; MR !5 epic &3',
  '<script>alert(1)</script> <https://evil.example> javascript:alert(1)',
  'evil\u202egnp \u061c\u3164 \u001b[31mred\u001b[0m',
  '&#64;octocat &#35;1 &lt;b&gt; &amp;',
];

describe('inertTitle', () => {
  it.each(HOSTILE)('leaves nothing live in %j', (title) => {
    const out = inertTitle(title);
    for (const live of LIVE) expect(out, String(live)).not.toMatch(live);
    expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]/u);
    expect(out).not.toContain('\n');
  });

  it('keeps a title readable and leaves ordinary ones alone', () => {
    expect(inertTitle('Fix add, closes #1 cc @octocat <img src=x>')).toBe(
      'Fix add, closes ＃1 cc ＠octocat ‹img src=x›',
    );
    expect(inertTitle('Support C# and F# in the parser')).toBe('Support C# and F# in the parser');
    expect(inertTitle('Update https://example.com docs')).toBe('Update https[:]//example.com docs');
    for (const plain of ['Fix the add function in calc.py', 'Handle a-b, c/d and (e) cases: 100% done!'])
      expect(inertTitle(plain)).toBe(plain);
  });
});

describe("a plan's title", () => {
  it('is inert as the PR title and as PR_SUMMARY.md heading', () => {
    const state = makeState({
      directive: {
        path: 'plan.md',
        kind: 'plan',
        text: '# Plan: Fix add, closes #1 cc @octocat <img src=https://evil.example/p.png>\n\n## Goal\nx\n',
        sha256: 'd'.repeat(64),
      },
    });
    const title = prTitle(state);
    expect(title.startsWith('Fix add, closes ＃1 cc ＠octocat ‹img')).toBe(true);
    for (const live of LIVE) expect(title, String(live)).not.toMatch(live);
    const heading = renderPrSummary(state).split('\n')[0]!;
    expect(heading).toBe(`# ${title}`);
  });
});
