// The monitor's templates escape everything that is not their own markup.
import { describe, expect, it } from 'vitest';
import { escapeHtml, foldIndentation, html, joinHtml, trustedHtml } from '../../../src/monitor/html.js';

const EVIL = `<script>alert("x")</script>&'`;

describe('html', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    expect(html`<p title="${EVIL}">${EVIL}</p>`.toString()).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
  });

  it('passes its own markup through, flattens lists and drops nothing-values', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}${[html`<br />`, 'a<b', 3]}${null}${undefined}${false}${Number.NaN}</p>`.toString()).toBe(
      '<p><b>&lt;i&gt;</b><br />a&lt;b3</p>',
    );
    expect(joinHtml(['<a>', html`<b></b>`], html`, `).toString()).toBe('&lt;a&gt;, <b></b>');
    expect(trustedHtml('<em>ok</em>').toString()).toBe('<em>ok</em>');
  });

  it('sanitises before escaping: escape sequences and controls go, bidi marks are shown', () => {
    expect(escapeHtml('a\u001b[31mred\u001b[0m\u0007b\u202ec')).toBe('aredb&lt;U+202E&gt;c');
  });

  it('folds the indentation between tags to one space, and never touches escaped text', () => {
    const text = 'a >\n  < b\n\n  indented';
    expect(
      foldIndentation(
        html`<ul>
          <li>${text}</li>
          <li>x</li>
        </ul>`,
      ).toString(),
    ).toBe('<ul> <li>a &gt;\n  &lt; b\n\n  indented</li> <li>x</li> </ul>');
  });
});
