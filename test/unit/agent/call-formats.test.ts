// Each text format's call that cannot be used is answered in that format's own shape, and so is a
// cut one; a model's family names the format an answer without a call is shown an example in.
import { describe, expect, it } from 'vitest';
import { callExample } from '../../../src/agent/examples.js';
import { familyFormat } from '../../../src/agent/model-family.js';
import { parseTurn } from '../../../src/agent/parse-turn.js';
import { scanCalls } from '../../../src/agent/scan-calls.js';
import { CALL_FORMATS } from '../../../src/agent/types.js';

/** A call to a tool we do not have, in each format, and what the reason must show. */
const UNKNOWN_TOOL: [string, string, string][] = [
  [
    'qwen-xml',
    '<tool_call>\n<function=read_file>\n<parameter=path>a.py</parameter>\n</function>\n</tool_call>',
    '<function=bash><parameter=command>',
  ],
  [
    'hermes',
    '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.py"}}\n</tool_call>',
    '<tool_call>{"name": "bash", "arguments": {"command":',
  ],
  [
    'json',
    '```json\n{"name": "read_file", "arguments": {"path": "a.py"}}\n```',
    'Write the call as {"name": "bash", "arguments": {"command":',
  ],
  ['mistral', '[TOOL_CALLS]read_file[ARGS]{"path": "a.py"}', '[TOOL_CALLS]bash[ARGS]{"command":'],
  [
    'harmony',
    '<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path": "a.py"}<|call|>',
    '<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{"command":',
  ],
  [
    'deepseek',
    '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n```json\n{"path": "a.py"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    '<｜tool▁call▁begin｜>bash<｜tool▁sep｜>{"command":',
  ],
  [
    'llama',
    '<|python_tag|>{"name": "read_file", "parameters": {"path": "a.py"}}',
    '<|python_tag|>{"name": "bash", "parameters": {"command":',
  ],
  ['functionary', '>>>read_file\n{"path": "a.py"}', '>>>bash, a line break, then {"command":'],
  [
    'granite',
    '<|tool_call|>[{"name": "read_file", "arguments": {"path": "a.py"}}]',
    '<|tool_call|>[{"name": "bash", "arguments": {"command":',
  ],
  [
    'firefunction',
    ' functools[{"name": "read_file", "arguments": {"path": "a.py"}}]',
    ' functools[{"name": "bash", "arguments": {"command":',
  ],
  [
    'command-r',
    '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "read_file", "parameters": {"path": "a.py"}}]<|END_ACTION|>',
    '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "bash", "parameters": {"command":',
  ],
];

describe('a call that cannot be used is answered in its own format', () => {
  it.each(UNKNOWN_TOOL)('%s', (format, text, shape) => {
    expect(scanCalls(text).format).toBe(format);
    const turn = parseTurn({ text });
    expect(turn.kind).toBe('malformed');
    if (turn.kind !== 'malformed') return;
    expect(turn.reason).toMatch(/no tool named "(functions\.)?read_file"/);
    expect(turn.reason).toContain(shape);
    expect(turn.reason).not.toMatch(/\n/);
  });

  it('covers every text format', () => {
    const covered = new Set(UNKNOWN_TOOL.map(([f]) => f));
    expect(CALL_FORMATS.filter((f) => f !== 'native' && f !== 'fenced' && !covered.has(f))).toEqual([]);
  });

  it('a cut call is asked for again in its own format', () => {
    const turn = parseTurn({
      text: '<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{"command": "ls',
    });
    expect(turn).toMatchObject({
      kind: 'malformed',
      cut: 'text',
      reason: expect.stringContaining('to=functions.bash'),
    });
    const server = parseTurn({ text: '[TOOL_CALLS]bash[ARGS]{"command": "ls"}', finishReason: 'length' });
    expect(server).toMatchObject({
      kind: 'malformed',
      cut: 'server',
      reason: expect.stringContaining('[TOOL_CALLS]bash[ARGS]'),
    });
  });

  it('every example stays on one line', () => {
    for (const f of CALL_FORMATS) if (f !== 'native') expect(callExample('create', f)).not.toMatch(/\n/);
  });
});

describe('familyFormat', () => {
  it.each([
    ['qwen3-coder:30b', 'qwen-xml'],
    ['Qwen/Qwen3-Coder-30B-A3B-Instruct', 'qwen-xml'],
    ['qwen2.5-coder:7b', 'hermes'],
    ['gpt-oss:20b', 'harmony'],
    ['deepseek-r1:14b', 'deepseek'],
    ['llama3.1:8b', 'llama'],
    ['meetkai/functionary-medium-v3.2', 'functionary'],
    ['granite3.3:8b', 'granite'],
    ['fireworks-ai/firefunction-v2', 'firefunction'],
    ['command-r7b', 'command-r'],
    ['devstral:24b', 'mistral'],
    ['my-model', null],
  ])('%s', (model, format) => {
    expect(familyFormat(model)).toBe(format);
  });
});
