// The page around every view: the head (style sheets, the bundle's Content-Security-Policy, the live
// script on the server), the header, and the main part the live script refreshes.
import { html, Section, type Html } from '../html.js';
import type { Links, RunRef } from '../links.js';

/** The policy a bundle's pages carry in a meta element: no script at all, nothing from elsewhere. */
export const BUNDLE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'";

/** The style sheets every page loads, in order (served from the monitor's assets). */
export const STYLE_SHEETS = ['diff2html.min.css', 'monitor.css'] as const;

/** A page's parts. */
export interface PageParts {
  title: string;
  links: Links;
  /** The run the page is about (null for the list), for its live updates. */
  live: RunRef | null | 'none';
  /** The main part, whole or as parts (sections a live page may keep among them). */
  main: Html | readonly Html[];
}

/**
 * The main element: what a live page replaces when its run changes. A section whose signature is in
 * `known` (the page has it already) is sent as an empty placeholder the page keeps its own copy for.
 */
export function mainElement(parts: Pick<PageParts, 'links' | 'live' | 'main'>, known?: ReadonlySet<string>): Html {
  const live = parts.links.live;
  if (live === null || parts.live === 'none') return html`<main id="main">${parts.main}</main>`;
  const main =
    known && Array.isArray(parts.main)
      ? (parts.main as readonly Html[]).map((p) =>
          p instanceof Section && known.has(p.sig)
            ? html`<section id="${p.id}" data-sig="${p.sig}" data-keep></section>`
            : p,
        )
      : parts.main;
  return html`<main id="main" data-events="${live.events(parts.live)}" data-fragment="${live.fragment(parts.live)}">
    ${main}
  </main>`;
}

/** A whole HTML document. */
export function renderPage(parts: PageParts): string {
  const { links } = parts;
  const bundle = links.live === null;
  const head = html`<meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    ${bundle ? html`<meta http-equiv="Content-Security-Policy" content="${BUNDLE_CSP}" />` : ''}
    <title>${parts.title}</title>
    ${STYLE_SHEETS.map((s) => html`<link rel="stylesheet" href="${links.asset(s)}" /> `)}${
      bundle || parts.live === 'none' ? '' : html`<script type="module" src="${links.asset('live.js')}"></script>`
    }`;
  const status = bundle
    ? html`<span class="livestate">static copy</span>`
    : parts.live === 'none'
      ? ''
      : html`<span class="livestate" id="livestate">connecting…</span>`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        ${head}
      </head>
      <body>
        <header class="top">
          <a class="brand" href="${links.list()}">hammer-box monitor</a>
          <nav><a href="${links.list()}">runs</a></nav>
          ${status}
        </header>
        ${mainElement(parts)}
      </body>
    </html> `.toString();
}
