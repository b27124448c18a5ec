// The tools as offered: the trained-on schema, and examples that parse back into the actions they show.
import { describe, expect, it } from 'vitest';
import { EXAMPLES, jsonArgsExample, xmlExample, type ExampleKey } from '../../../src/agent/examples.js';
import { parseTurn } from '../../../src/agent/parse-turn.js';
import { AGENT_TOOLS, agentToolsText } from '../../../src/agent/tool-specs.js';

const KEYS = Object.keys(EXAMPLES) as ExampleKey[];

describe('AGENT_TOOLS', () => {
  it('offers bash{command}, edit{the editor schema}, submit{}', () => {
    expect(AGENT_TOOLS.map((t) => t.name)).toEqual(['bash', 'edit', 'submit']);
    const [bash, edit, submit] = AGENT_TOOLS;
    expect(bash!.parameters).toMatchObject({ required: ['command'], properties: { command: { type: 'string' } } });
    expect(Object.keys(edit!.parameters['properties'] as object)).toEqual([
      'command',
      'path',
      'file_text',
      'old_str',
      'new_str',
      'insert_line',
      'view_range',
    ]);
    expect(edit!.parameters).toMatchObject({
      required: ['command', 'path'],
      properties: { command: { enum: ['view', 'create', 'str_replace', 'insert', 'undo_edit'] } },
    });
    expect(submit!.parameters).toEqual({ type: 'object', properties: {}, required: [] });
    for (const t of AGENT_TOOLS) expect(t.description.length).toBeGreaterThan(40);
  });
});

describe('agentToolsText', () => {
  const text = agentToolsText();

  it('teaches the XML shape with one example per tool', () => {
    expect(text).toContain('<function=TOOL_NAME>');
    for (const tool of ['bash', 'edit', 'submit']) {
      expect(text).toContain(`## ${tool}`);
      expect(text.split(`<function=${tool}>`).length - 1).toBe(1);
    }
  });

  it('its examples parse back into the actions they show', () => {
    const turn = parseTurn({ text: text.slice(text.indexOf('## bash')) });
    expect(turn.kind).toBe('actions');
    if (turn.kind !== 'actions') return;
    expect(turn.actions.map((a) => a.action)).toEqual([
      { tool: 'bash', command: 'grep -rn "def parse" src/' },
      {
        tool: 'edit',
        command: 'str_replace',
        path: 'src/app.py',
        oldStr: '    return a - b',
        newStr: '    return a + b',
      },
      { tool: 'submit' },
    ]);
    expect(new Set(turn.actions.map((a) => a.shape))).toEqual(new Set(['qwen-xml']));
  });
});

describe('the examples the reasons show', () => {
  it.each(KEYS)('%s parses in every shape it is shown in', (key) => {
    const shapes = [
      parseTurn({ text: xmlExample(key) }),
      parseTurn({ text: xmlExample(key, { oneLine: true, wrap: true }) }),
      parseTurn({ text: '', toolCalls: [{ id: 'c', name: EXAMPLES[key].tool, arguments: jsonArgsExample(key) }] }),
      parseTurn({ text: `{"name": "${EXAMPLES[key].tool}", "arguments": ${jsonArgsExample(key)}}` }),
    ];
    for (const t of shapes) expect(t.kind).toBe('actions');
    const actions = shapes.map((t) => (t.kind === 'actions' ? t.actions[0]!.action : null));
    const want = key === 'bash' || key === 'submit' ? key : 'edit';
    for (const a of actions) expect(a?.tool).toBe(want);
    if (want === 'edit') for (const a of actions) expect(a).toMatchObject({ command: key });
  });
});
