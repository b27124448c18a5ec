// parseTurn over the corpus of answers in every shape (turn-corpus.ts), then the properties every
// answer keeps: a malformed call's reason is short and shows the right shape.
import { describe, expect, it } from 'vitest';
import { MAX_CALLS_PER_TURN, parseTurn, stripThinking } from '../../../src/agent/parse-turn.js';
import { TURN_CASES } from './turn-corpus.js';

describe('parseTurn: the corpus', () => {
  it('holds every shape and outcome', () => {
    const shapes = new Set(
      TURN_CASES.flatMap((c) => (c.expect.kind === 'actions' ? c.expect.actions.map((a) => a.shape) : [])),
    );
    expect([...shapes].sort()).toEqual(['fenced', 'json', 'native', 'qwen-xml']);
    expect(TURN_CASES.filter((c) => c.expect.kind === 'malformed').length).toBeGreaterThanOrEqual(15);
    expect(TURN_CASES.filter((c) => c.expect.kind === 'none').length).toBeGreaterThanOrEqual(4);
  });

  it.each(TURN_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const turn = parseTurn({ text: c.text, ...(c.toolCalls === undefined ? {} : { toolCalls: c.toolCalls }) });
    const e = c.expect;
    expect(turn.kind).toBe(e.kind);
    if (e.kind === 'actions' && turn.kind === 'actions') {
      expect(turn.actions).toEqual(e.actions);
      if (e.thought !== undefined) expect(turn.thought).toBe(e.thought);
    }
    if (e.kind === 'malformed' && turn.kind === 'malformed') {
      expect(turn.reason).toMatch(e.reason);
      expect(turn.callId).toBe(e.callId ?? (c.toolCalls === undefined ? undefined : turn.callId));
    }
    if (e.kind === 'none' && turn.kind === 'none' && e.thought !== undefined) expect(turn.thought).toBe(e.thought);
  });

  it('every malformed reason is one short line that shows a shape and says nothing ran', () => {
    for (const c of TURN_CASES.filter((x) => x.expect.kind === 'malformed')) {
      const turn = parseTurn({ text: c.text, ...(c.toolCalls === undefined ? {} : { toolCalls: c.toolCalls }) });
      if (turn.kind !== 'malformed') throw new Error(c.name);
      expect(turn.reason, c.name).not.toMatch(/\n/);
      expect(turn.reason.length, c.name).toBeLessThan(400);
      expect(turn.reason, c.name).toMatch(/nothing was run|none of the calls/);
      expect(turn.reason, c.name).toMatch(/<function=|"arguments"|arguments like|```bash/);
    }
  });

  it('a malformed native call names the id of the call it answers; text calls carry none', () => {
    const native = parseTurn({ text: '', toolCalls: [{ id: 'c7', name: 'nope', arguments: '{}' }] });
    expect(native).toMatchObject({ kind: 'malformed', callId: 'c7' });
    const text = parseTurn({ text: '<function=nope></function>' });
    expect(text.kind).toBe('malformed');
    expect('callId' in text).toBe(false);
  });
});

describe('parseTurn: bounds and odd inputs', () => {
  it(`takes at most ${MAX_CALLS_PER_TURN} calls from one answer`, () => {
    const many = Array.from({ length: MAX_CALLS_PER_TURN + 1 }, (_, i) => ({
      id: `c${i}`,
      name: 'bash',
      arguments: '{"command": "true"}',
    }));
    expect(parseTurn({ text: '', toolCalls: many })).toMatchObject({
      kind: 'malformed',
      reason: /makes 17 tool calls/,
    });
    const xml = '<function=bash><parameter=command>true</parameter></function>\n'.repeat(MAX_CALLS_PER_TURN + 1);
    expect(parseTurn({ text: xml })).toMatchObject({ kind: 'malformed', reason: /at most 16/ });
    expect(parseTurn({ text: xml.repeat(1).split('\n').slice(0, MAX_CALLS_PER_TURN).join('\n') }).kind).toBe('actions');
  });

  it('CRLF answers read as LF', () => {
    const turn = parseTurn({
      text: '<function=edit>\r\n<parameter=command>str_replace</parameter>\r\n<parameter=path>a.py</parameter>\r\n<parameter=old_str>\r\nx = 1\r\ny = 2\r\n</parameter>\r\n<parameter=new_str>\r\nx = 3\r\n</parameter>\r\n</function>',
    });
    expect(turn).toMatchObject({ kind: 'actions', actions: [{ action: { oldStr: 'x = 1\ny = 2', newStr: 'x = 3' } }] });
  });

  it('a parameter given twice: the call is refused, nothing runs', () => {
    const turn = parseTurn({
      text: '<function=bash><parameter=command>ls</parameter><parameter=command>rm -rf /</parameter></function>',
    });
    expect(turn).toMatchObject({ kind: 'malformed', reason: /the parameter command is given twice; nothing was run/ });
  });

  it('stray text between parameters is skipped', () => {
    const turn = parseTurn({
      text: '<function=edit>\nnow the path:\n<parameter=command>view</parameter>\n(the main file)\n<parameter=path>m.py</parameter>\n</function>',
    });
    expect(turn).toMatchObject({ kind: 'actions', actions: [{ action: { command: 'view', path: 'm.py' } }] });
  });

  it('quotes and spaces around the function and parameter names', () => {
    const turn = parseTurn({ text: '<function="bash">\n<parameter = "command">ls</parameter>\n</function>' });
    expect(turn).toMatchObject({ kind: 'actions', actions: [{ action: { tool: 'bash', command: 'ls' } }] });
  });

  it('a tool named with any case and a tools. prefix', () => {
    const turn = parseTurn({ text: '', toolCalls: [{ id: 'x', name: 'Tools.BASH', arguments: '{"command":"ls"}' }] });
    expect(turn).toMatchObject({ kind: 'actions', actions: [{ action: { tool: 'bash' } }] });
  });

  it('a very long tool name is shown short in every reason', () => {
    const name = 'n'.repeat(5000);
    for (const turn of [
      parseTurn({ text: '', toolCalls: [{ id: 'x', name, arguments: '{not json' }] }),
      parseTurn({ text: '', toolCalls: [{ id: 'x', name, arguments: '{}' }] }),
      parseTurn({ text: `<function=${name}>{oops</function>` }),
      parseTurn({ text: `<tool_call>{"name": "${name}", "arguments": "{oops"}</tool_call>` }),
    ]) {
      expect(turn.kind).toBe('malformed');
      if (turn.kind === 'malformed') expect(turn.reason.length).toBeLessThan(300);
    }
  });

  it('a call without a name', () => {
    const turn = parseTurn({ text: '', toolCalls: [{ id: 'x', name: '', arguments: '{"command":"ls"}' }] });
    expect(turn).toMatchObject({
      kind: 'malformed',
      reason: /^a call without a tool name: the tools are bash, edit and submit/,
    });
  });
});

describe('stripThinking', () => {
  it('removes <think> and <thinking> blocks, an unclosed one to the end, and all before a lone </think>', () => {
    expect(stripThinking('a<think>x</think>b')).toBe('ab');
    expect(stripThinking('a<thinking>x</thinking>b')).toBe('ab');
    expect(stripThinking('a<think>x')).toBe('a');
    expect(stripThinking('reasoning</think>answer')).toBe('answer');
    expect(stripThinking('no thinking')).toBe('no thinking');
  });
});

describe('parseTurn for a conversation with a person (fenced: false)', () => {
  it('an answer showing a ```bash block is words for the reader, not a command', () => {
    const text = 'Run the tests with:\n\n```bash\npython3 -m pytest -q\n```\n';
    expect(parseTurn({ text }).kind).toBe('actions');
    expect(parseTurn({ text }, { fenced: false })).toEqual({ kind: 'none', thought: text.trim() });
  });

  it('still reads calls in the other shapes', () => {
    const text = 'Looking.\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>';
    expect(parseTurn({ text }, { fenced: false })).toMatchObject({
      kind: 'actions',
      actions: [{ action: { tool: 'bash', command: 'ls' }, shape: 'qwen-xml' }],
    });
  });
});
