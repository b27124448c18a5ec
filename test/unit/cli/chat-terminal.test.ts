// The chat's terminal side: typed lines read as messages or commands, colour only when the terminal
// has it (NO_COLOR, TERM=dumb), and the renderer: the model's words streamed without its thinking or
// the calls it wrote, hostile text never reaching the terminal raw, tokens and time after an answer.
import { describe, expect, it } from 'vitest';
import { ChatRenderer, visibleText } from '../../../src/cli/chat/render.js';
import { completeSlash, parseTyped } from '../../../src/cli/chat/slash.js';
import { colourFor, makeStyle } from '../../../src/cli/chat/style.js';
import { exchange } from '../chat/fixtures.js';

describe('parseTyped', () => {
  it('reads messages, commands with their argument, aliases and unknown commands', () => {
    expect(parseTyped('  why does it fail? ')).toEqual({ kind: 'message', text: 'why does it fail?' });
    expect(parseTyped('/branch Make total() add')).toEqual({
      kind: 'command',
      name: 'branch',
      arg: 'Make total() add',
    });
    expect(parseTyped('/EXIT')).toEqual({ kind: 'command', name: 'quit', arg: '' });
    expect(parseTyped('/tset')).toEqual({ kind: 'unknown', name: 'tset', suggestion: null });
    expect(parseTyped('/te')).toEqual({ kind: 'unknown', name: 'te', suggestion: 'test' });
    expect(parseTyped('//etc/hosts is odd')).toEqual({ kind: 'message', text: '/etc/hosts is odd' });
    expect(parseTyped('   ')).toEqual({ kind: 'empty' });
  });
  it('completes command names', () => {
    expect(completeSlash('/b')).toEqual([['/branch'], '/b']);
    expect(completeSlash('hello')).toEqual([[], 'hello']);
  });
});

describe('colour', () => {
  const tty = { isTTY: true, hasColors: () => true };
  it('only on a terminal that has it, never with NO_COLOR or TERM=dumb', () => {
    expect(colourFor(tty, {})).toBe(true);
    expect(colourFor(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourFor(tty, { NO_COLOR: '' })).toBe(true);
    expect(colourFor(tty, { TERM: 'dumb' })).toBe(false);
    expect(colourFor({ isTTY: false }, {})).toBe(false);
    expect(colourFor({ isTTY: true, hasColors: () => false }, {})).toBe(false);
    expect(makeStyle(false).red('x')).toBe('x');
    expect(makeStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
  });
});

describe('visibleText', () => {
  it('leaves out thinking, a call written in the text, and a tag still arriving', () => {
    expect(visibleText('<think>hmm</think>The bug is here.')).toBe('The bug is here.');
    expect(visibleText('Looking.\n<function=bash>\n<parameter=command>ls')).toBe('Looking.\n');
    expect(visibleText('Looking. <func')).toBe('Looking. ');
    expect(visibleText('a < b and c')).toBe('a ');
    expect(visibleText('a < b and c > d')).toBe('a < b and c > d');
    expect(visibleText('a < b and c', true)).toBe('a < b and c');
  });
});

function output(isTTY: boolean) {
  let text = '';
  return { out: { isTTY, columns: 100, write: (s: string) => (text += s) }, text: () => text };
}

describe('ChatRenderer', () => {
  it('streams the words sanitised, shows each call and its result, then tokens and time', () => {
    const o = output(false);
    const r = new ChatRenderer(o.out, makeStyle(false));
    r.begin();
    r.emit({ type: 'thinking', tokens: 3, elapsedMs: 10 });
    r.emit({ type: 'text', delta: 'The bug \u001b]0;pwned\u0007is ' });
    r.emit({ type: 'text', delta: 'on line \u001b[2J4 < ' });
    r.emit({ type: 'text', delta: '5.' });
    r.emit({ type: 'turn', k: 1, durationMs: 5, parsed: 'none' });
    r.emit({ type: 'step_started', tool: 'bash', line: 'pytest \u001b[31m-q' });
    r.emit({
      type: 'step',
      tool: 'bash',
      line: 'pytest -q',
      outcome: 'failed',
      exitCode: 1,
      durationMs: 800,
      observation: Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n'),
    });
    r.emit({ type: 'step_started', tool: 'edit', line: 'str_replace ci.yml' });
    r.emit({
      type: 'step',
      tool: 'edit',
      line: 'x',
      outcome: 'refused',
      durationMs: 1,
      observation: 'edit refused: a sensitive path',
    });
    r.end(exchange(1, 'q', 'a', { prompt_tokens: 1234, completion_tokens: 56, duration_ms: 4200 }));
    const text = o.text();
    expect(text).toContain('[thinking...]');
    expect(text).toContain('The bug is on line 4 < 5.\n');
    expect(text).toContain('▸ bash pytest -q\n');
    expect(text).toContain('  ✗ exit 1 · 800 ms\n');
    expect(text).toContain('  │ line 1\n  │ line 2\n  │ ... 14 more lines\n  │ line 17\n');
    expect(text).toContain('  │ line 20\n');
    expect(text).toContain('  ⊘ refused: a sensitive path');
    expect(text).toContain('── 1,234 in · 56 out · 4.2 s\n');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  it('on a terminal: a live [thinking...] line, cleared before the words; colour when asked', () => {
    const o = output(true);
    const r = new ChatRenderer(o.out, makeStyle(true));
    r.begin();
    r.emit({ type: 'thinking', tokens: 7, elapsedMs: 10 });
    r.emit({ type: 'text', delta: 'Done.' });
    r.end(exchange(1, 'q', 'Done.', { end: { reason: 'interrupted', detail: '' } }));
    r.stop();
    const text = o.text();
    expect(text).toMatch(/\r\u001b\[2K\u001b\[2m\[thinking\.\.\. [\d.]+s · 7 tokens\]/);
    expect(text).toContain('\r\u001b[2KDone.\n');
    expect(text).toMatch(/· stopped\u001b\[22m\n$/);
  });
});
