// PR_SUMMARY.md rendered: markdown works, raw HTML is text except the bare tags PR_SUMMARY.md writes,
// links are checked, images are off.
import { describe, expect, it } from 'vitest';
import { filterRawHtml, renderMarkdown } from '../../../src/monitor/render/markdown.js';

const md = (s: string): string => renderMarkdown(s).toString();

describe('renderMarkdown', () => {
  it('renders headings, tables, code and the summary of a collapsed block', () => {
    const out = md(
      '# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<details><summary>Output</summary>\n\n```text\nx < y\n```\n\n</details>\n\n<sub>run `x`</sub>\n',
    );
    expect(out).toContain('<h1>Title</h1>');
    expect(out).toContain('<td>1</td>');
    expect(out).toContain('<details><summary>Output</summary>');
    expect(out).toContain('<code class="language-text">x &lt; y\n</code>');
    expect(out).toContain('</details>');
    expect(out).toContain('<sub>run <code>x</code></sub>');
  });

  it('escapes every other tag, and allowed tags that carry attributes', () => {
    const out = md(
      '<script>alert(1)</script>\n\ntext <img src=x onerror=alert(1)> and <b onclick="x">b</b>\n\n<details open ontoggle="alert(1)">x</details>\n',
    );
    expect(out).not.toMatch(/<script|<img|<b |<details /);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('&lt;details open ontoggle=&quot;alert(1)&quot;&gt;');
  });

  it('never makes a javascript:, vbscript:, file: or data: link, and shows no image', () => {
    const out = md(
      '[a](javascript:alert(1)) [b](vbscript:x) [c](file:///etc/passwd) [d](data:text/html,x) ![e](http://example.com/x.png) [ok](https://example.com/)',
    );
    expect(out).not.toMatch(/href="(javascript|vbscript|file|data):/);
    expect(out).not.toContain('<img');
    expect(out).toContain('<a href="https://example.com/" rel="noopener noreferrer">ok</a>');
  });

  it('sanitises first: no escape sequences, bidi marks shown', () => {
    expect(md('a\u001b]0;title\u0007b \u202e')).toBe('<p>ab &lt;U+202E&gt;</p>\n');
  });
});

describe('filterRawHtml', () => {
  it('keeps the bare tags (normalised) and escapes the rest', () => {
    expect(filterRawHtml('<DETAILS ><summary>x & y</summary><br/><iframe>')).toBe(
      '<details><summary>x &amp; y</summary><br/>&lt;iframe&gt;',
    );
  });
});
