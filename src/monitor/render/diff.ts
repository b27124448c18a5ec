// A unified diff as HTML, by diff2html: files, hunks, line numbers and the changed words marked.
// diff2html escapes every file name and line it renders (its templates and its own escaper); the
// text is sanitised before it gets there, and a diff too large to lay out is shown as plain text.
import { defaultDiff2HtmlConfig, html as diffHtml } from 'diff2html';
import { LineMatchingType } from 'diff2html/lib/types.js';
import { html, trustedHtml, type Html } from '../html.js';

/** Patches larger than this are shown as text, not laid out as a diff table. */
export const MAX_RENDERED_DIFF_CHARS = 400_000;

/** A patch's text as a line-by-line diff (or as escaped text when it is very large or not a diff). */
export function renderDiff(patch: string): Html {
  if (patch.length > MAX_RENDERED_DIFF_CHARS) return html`<pre class="text">${patch}</pre>`;
  const markup = diffHtml(patch, { ...defaultDiff2HtmlConfig, drawFileList: false, matching: LineMatchingType.LINES });
  return html`<div class="diff">${trustedHtml(markup)}</div>`;
}
