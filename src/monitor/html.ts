// HTML built safe by construction: `html` templates escape every interpolated string (after the
// sanitiser, so escape sequences and bidi tricks are gone too); only Html values, made by our own
// templates or by trustedHtml() around a library's escaped output, pass through as markup.
import { sanitizeText, UNSAFE_CLASS } from '../text/sanitize.js';

/** Markup that is safe to put in a page as it is. */
export class Html {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  /** The markup. */
  toString(): string {
    return this.#value;
  }
}

/** What a template accepts: markup, text (escaped), numbers, nothing (false, null, undefined) and lists of those. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// What the sanitiser would change (escape sequences, controls but \t and \n, \r, bidi and zero-width marks):
// most text has none, and skips it.
const NEEDS_SANITIZING = new RegExp(`[${UNSAFE_CLASS}]`, 'u');
const SPECIAL = /[&<>"']/;

/** Text as HTML text or attribute value: sanitised, then & < > " ' escaped. */
export function escapeHtml(text: string): string {
  const clean = NEEDS_SANITIZING.test(text) ? sanitizeText(text) : text;
  return SPECIAL.test(clean) ? clean.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : clean;
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.toString();
  if (value === null || value === undefined || value === false || value === true) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'string') return escapeHtml(value);
  return value.map(render).join('');
}

/** A template whose every interpolation is escaped unless it is Html. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

/** Markup produced by a library that escapes what it renders (diff2html, markdown-it with our rules). */
export function trustedHtml(markup: string): Html {
  return new Html(markup);
}

/** Join pieces of markup. */
export function joinHtml(parts: readonly HtmlValue[], separator: HtmlValue = ''): Html {
  const sep = render(separator);
  return new Html(parts.map(render).join(sep));
}

/** A part of a page a live page may keep: its markup, its id, and a signature of its content. */
export class Section extends Html {
  readonly id: string;
  readonly sig: string;
  constructor(markup: string, id: string, sig: string) {
    super(markup);
    this.id = id;
    this.sig = sig;
  }
}

/**
 * Markup with the indentation between tags folded to one space (`>` newline-and-spaces `<`): what a
 * browser shows of it anyway, outside <pre>, whose text is escaped and so never holds a `>` or `<`.
 */
export function foldIndentation(markup: Html): Html {
  return new Html(markup.toString().replace(/>\s*\n\s*</g, '> <'));
}
