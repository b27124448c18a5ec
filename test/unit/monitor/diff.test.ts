// Candidate diffs laid out by diff2html: names and lines escaped, a huge patch shown as text.
import { describe, expect, it } from 'vitest';
import { MAX_RENDERED_DIFF_CHARS, renderDiff } from '../../../src/monitor/render/diff.js';

const NAME = `<img src=x onerror="alert(1)">.p"y`;
const PATCH = `diff --git a/${NAME} b/${NAME}
--- a/${NAME}
+++ b/${NAME}
@@ -1,2 +1,2 @@
-x = "<script>alert(1)</script>"
+x = 2
 y = 3
`;

describe('renderDiff', () => {
  it('lays out files and lines with every name and line escaped', () => {
    const out = renderDiff(PATCH).toString();
    expect(out).toContain('d2h-file-wrapper');
    expect(out).toContain('d2h-ins');
    expect(out).not.toMatch(/<img|<script|onerror="/);
    expect(out).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;.p&quot;y');
  });

  it('shows a patch too large to lay out as escaped text', () => {
    const big = `${PATCH}${'+<b>\n'.repeat(MAX_RENDERED_DIFF_CHARS / 4)}`;
    const out = renderDiff(big).toString();
    expect(out.startsWith('<pre class="text">')).toBe(true);
    expect(out).not.toContain('<b>');
  });
});
