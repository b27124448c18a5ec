// Markdown (PR_SUMMARY.md) as HTML, by markdown-it: CommonMark, links checked by its validateLink
// (no javascript:, vbscript:, file: or data: URLs), images off (the page loads nothing from
// elsewhere). Raw HTML is escaped as text, except the few bare tags PR_SUMMARY.md writes itself
// (<details>, <summary>, <sub>), which pass only in exactly that form, without attributes.
import MarkdownItCallable, { type MarkdownIt } from 'markdown-it';
import { sanitizeText } from '../../text/sanitize.js';
import { escapeHtml, trustedHtml, type Html } from '../html.js';

/** Tags let through, only bare: `<details>`, `</details>`, and so on. */
const BARE_TAGS = ['details', 'summary', 'sub', 'sup', 'br'] as const;
const BARE_TAG = new RegExp(`(<\\/?(?:${BARE_TAGS.join('|')})\\s*\\/?>)`, 'i');

/** Raw HTML from the text: the bare tags above kept (normalised), everything else escaped. */
export function filterRawHtml(raw: string): string {
  return raw
    .split(BARE_TAG)
    .map((part, i) => (i % 2 === 1 ? part.toLowerCase().replace(/\s+/g, '') : escapeHtml(part)))
    .join('');
}

function renderer(): MarkdownIt {
  const md = new MarkdownItCallable({ html: true, linkify: false, typographer: false });
  md.disable('image');
  md.renderer.rules['html_block'] = (tokens, idx) => filterRawHtml(tokens[idx]!.content);
  md.renderer.rules['html_inline'] = (tokens, idx) => filterRawHtml(tokens[idx]!.content);
  const link = md.renderer.rules['link_open'];
  md.renderer.rules['link_open'] = (tokens, idx, options, env, self) => {
    tokens[idx]!.attrSet('rel', 'noopener noreferrer');
    return link ? link(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };
  return md;
}

let md: MarkdownIt | undefined;

/** Markdown text as safe HTML (sanitised first: no control characters, bidi marks shown). */
export function renderMarkdown(text: string): Html {
  md ??= renderer();
  return trustedHtml(md.render(sanitizeText(text)));
}
