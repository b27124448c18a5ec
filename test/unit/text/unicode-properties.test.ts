// The characters that hide or reorder text are found by Unicode property, not by a hand list: every
// Bidi_Control and Default_Ignorable_Code_Point code point (U+061C, the Arabic letter mark, was
// missed by the list), and the C0 and C1 controls. Each place untrusted text leaves hammer-box (the
// terminal, the state's text, markdown, a page, a commit message, a suggested command, --json) is
// checked with every one of them.
import { describe, expect, it } from 'vitest';
import { terminalJson } from '../../../src/cli/terminal-json.js';
import { commitMessage } from '../../../src/git/commit-message.js';
import { preview } from '../../../src/llm/preview.js';
import { escapeHtml } from '../../../src/monitor/html.js';
import { unsafePathReason } from '../../../src/patch/patch-paths.js';
import { inertLine, inertText } from '../../../src/text/markdown.js';
import { sanitizeLine, sanitizeText } from '../../../src/text/sanitize.js';
import { shellWord } from '../../../src/text/shell-word.js';

const HIDDEN = /[\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]/u;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

/** Every code point with either property, found by scanning the whole code space. */
const HIDDEN_POINTS: string[] = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const c = String.fromCodePoint(cp);
  if (HIDDEN.test(c)) HIDDEN_POINTS.push(c);
}

const hex = (c: string): string => c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');

describe('the hidden characters', () => {
  it('are the properties, U+061C and the others the old list missed among them', () => {
    for (const c of ['\u061c', '\u00ad', '\u034f', '\u115f', '\u180e', '\u3164', '\ufe0f', '\u{e0041}', '\u202e'])
      expect(HIDDEN_POINTS).toContain(c);
    expect(HIDDEN_POINTS.length).toBeGreaterThan(4000);
  });

  it('sanitizeText and sanitizeLine show each as <U+XXXX>, never raw', () => {
    const all = HIDDEN_POINTS.map((c) => `a${c}b`).join(' ');
    for (const out of [sanitizeText(all), sanitizeLine(all)]) {
      expect(HIDDEN.exec(out)?.[0]).toBeUndefined();
      for (const c of ['\u061c', '\u3164', '\u{e0041}']) expect(out).toContain(`a<U+${hex(c)}>b`);
    }
  });

  it.each([
    ['inertText (markdown)', inertText],
    ['inertLine (markdown)', inertLine],
    ['escapeHtml (the monitor)', escapeHtml],
    ['commitMessage', (t: string) => commitMessage({ subject: t, body: t, trailers: [['Hammer-Box-Run', t]] })],
    ['shellWord (suggested commands)', shellWord],
    ['terminalJson (--json)', (t: string) => terminalJson({ t })],
    ['preview (a server answer in an error)', (t: string) => preview(t, 1_000_000)],
  ])('%s lets none through raw', (_name, render) => {
    for (let i = 0; i < HIDDEN_POINTS.length; i += 200) {
      const chunk = HIDDEN_POINTS.slice(i, i + 200)
        .map((c) => `x${c}y`)
        .join(' ');
      const out = render(`${chunk}\u0085\u009b31m`);
      expect(HIDDEN.exec(out)?.[0], _name).toBeUndefined();
      expect(CONTROL.exec(out)?.[0], _name).toBeUndefined();
    }
  });

  it('a patch path holding one is refused', () => {
    for (const c of ['\u061c', '\u3164', '\u00ad', '\u{e0041}'])
      expect(unsafePathReason(`src/a${c}.py`)).toMatch(/invisible/);
  });
});
