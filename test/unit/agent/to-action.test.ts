// Tool names and arguments normalised into actions: the aliases models use and the forms values come in.
import { describe, expect, it } from 'vitest';
import { toAction, toolNamed } from '../../../src/agent/to-action.js';

describe('toolNamed', () => {
  it.each([
    ['bash', 'bash'],
    ['execute_bash', 'bash'],
    ['Shell', 'bash'],
    ['run', 'bash'],
    ['functions.bash', 'bash'],
    ['functions:execute_bash', 'bash'],
    ['"bash"', 'bash'],
    ['bash<|channel|>commentary', 'bash'],
    ['edit', 'edit'],
    ['str_replace_editor', 'edit'],
    ['str_replace_based_edit_tool', 'edit'],
    ['editor', 'edit'],
    ['submit', 'submit'],
    ['finish', 'submit'],
    ['done', 'submit'],
    ['view', 'view'],
    ['undo_edit', 'undo_edit'],
    ['read_file', null],
    ['', null],
  ])('%s -> %s', (name, tool) => {
    expect(toolNamed(name)).toBe(tool);
  });
});

describe('toAction', () => {
  it('bash: command or cmd, trimmed; an argv array joined', () => {
    expect(toAction('bash', { command: '  ls -la \n' })).toEqual({
      ok: true,
      action: { tool: 'bash', command: 'ls -la' },
    });
    expect(toAction('bash', { cmd: 'pwd' })).toEqual({ ok: true, action: { tool: 'bash', command: 'pwd' } });
    expect(toAction('bash', { command: ['sh', '-c', 'echo hi'] })).toMatchObject({ action: { command: 'echo hi' } });
    expect(toAction('bash', { command: ['echo', "it's", 'a b'] })).toMatchObject({
      action: { command: `echo 'it'\\''s' 'a b'` },
    });
    expect(toAction('bash', { command: [1, 2] })).toMatchObject({
      ok: false,
      problem: /bash needs "command".*\(got \[1,2\]\)/,
    });
  });

  it('submit ignores whatever arguments come with it', () => {
    expect(toAction('finish', { message: 'done!' })).toEqual({ ok: true, action: { tool: 'submit' } });
  });

  it('view_range in every form models send it', () => {
    for (const r of [[5, 9], ['5', '9'], '[5, 9]', '5,9', '5-9', '5 9', ' [ 5 ,9 ] ']) {
      expect(toAction('edit', { command: 'view', path: 'a', view_range: r })).toEqual({
        ok: true,
        action: { tool: 'edit', command: 'view', path: 'a', viewRange: [5, 9] },
      });
    }
    expect(toAction('edit', { command: 'view', path: 'a', view_range: '[5, -1]' })).toMatchObject({
      action: { viewRange: [5, -1] },
    });
    expect(toAction('edit', { command: 'view', path: 'a', view_range: null })).toEqual({
      ok: true,
      action: { tool: 'edit', command: 'view', path: 'a' },
    });
    for (const bad of [[1], [1, 2, 3], '1..9', [1.5, 2], 'all']) {
      expect(toAction('edit', { command: 'view', path: 'a', view_range: bad })).toMatchObject({
        ok: false,
        example: 'view',
      });
    }
  });

  it('insert_line as a number or digits only', () => {
    expect(toAction('edit', { command: 'insert', path: 'a', insert_line: ' 0 ', new_str: 'x' })).toMatchObject({
      action: { insertLine: 0 },
    });
    for (const bad of [-1, 1.5, 'twelve', '3a']) {
      expect(toAction('edit', { command: 'insert', path: 'a', insert_line: bad, new_str: 'x' })).toMatchObject({
        ok: false,
        problem: /insert_line/,
      });
    }
  });

  it('numbers and booleans for text values become text; content for file_text; the command in any case', () => {
    expect(toAction('edit', { command: 'STR_REPLACE', path: 'v.txt', old_str: 1, new_str: 2 })).toEqual({
      ok: true,
      action: { tool: 'edit', command: 'str_replace', path: 'v.txt', oldStr: '1', newStr: '2' },
    });
    expect(toAction('edit', { command: 'create', path: 'n', content: 'x' })).toMatchObject({
      action: { fileText: 'x' },
    });
    expect(toAction('edit', { command: 'str_replace', path: 'a', old_str: 'x', new_str: { a: 1 } })).toMatchObject({
      ok: false,
      problem: '"new_str" must be text (the replacement)',
    });
  });

  it('every problem names the example of the command it is about', () => {
    expect(toAction('edit', { command: 'view' })).toMatchObject({
      ok: false,
      problem: /edit view needs "path"/,
      example: 'view',
    });
    expect(toAction('edit', { command: 'undo_edit', path: '  ' })).toMatchObject({ example: 'undo_edit' });
    expect(toAction('edit', { command: 'insert', path: 'a', insert_line: 1 })).toMatchObject({
      problem: 'edit insert needs "new_str": the text to insert',
    });
    expect(toAction('edit', {})).toMatchObject({ problem: /^edit needs "command", one of/, example: 'str_replace' });
  });

  it('a long unknown name is shown short', () => {
    const r = toAction('x'.repeat(500), {});
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.problem.length).toBeLessThanOrEqual(120);
  });
});
