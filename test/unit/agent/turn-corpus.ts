// Model answers as agent mode meets them, written in the shapes real servers and models produce:
// native calls from Ollama's /api/chat and OpenAI-compatible servers (arguments as raw JSON text,
// sometimes broken), qwen3-coder's XML with and without <tool_call>, Hermes/Qwen2.5 and Llama JSON,
// Mistral/Devstral's [TOOL_CALLS], mini-swe-agent's one ```bash block, and answers that only talk.
import type { AgentAction, CallShape } from '../../../src/agent/types.js';
import type { ToolCall } from '../../../src/llm/types.js';

/** One answer and what parseTurn must make of it. */
export interface TurnCase {
  name: string;
  text: string;
  toolCalls?: ToolCall[];
  expect:
    | { kind: 'actions'; actions: { action: AgentAction; shape: CallShape; callId?: string }[]; thought?: string }
    | { kind: 'malformed'; reason: RegExp; callId?: string }
    | { kind: 'none'; thought?: string };
}

const call = (name: string, args: string, id = 'call_0'): ToolCall => ({ id, name, arguments: args });
const bash = (command: string): AgentAction => ({ tool: 'bash', command });

const PY_WITH_BRACKETS = [
  'from typing import Generic, TypeVar',
  '',
  'T = TypeVar("T")',
  '',
  '',
  'class Box(Generic[T]):',
  '    def smaller(self, a: int, b: int) -> bool:',
  '        return a < b and b > 0  # <tag> is not a tag',
  '',
  '    def render(self) -> str:',
  '        return "<div class=\\"box\\"></div>"',
  '',
].join('\n');

const HTML =
  '<!doctype html>\n<html>\n  <body>\n    <p>a &lt; b</p>\n    <script>if (a < b && c > d) go();</script>\n  </body>\n</html>\n';

export const TURN_CASES: TurnCase[] = [
  // ---- native calls ------------------------------------------------------------------------------
  {
    name: 'openai: one bash call, clean JSON',
    text: '',
    toolCalls: [call('bash', '{"command": "ls -la src"}', 'call_Jx81')],
    expect: { kind: 'actions', actions: [{ action: bash('ls -la src'), shape: 'native', callId: 'call_Jx81' }] },
  },
  {
    name: 'ollama qwen3-coder: str_replace with multi-line JSON strings and a thought',
    text: 'The subtraction should be an addition.',
    toolCalls: [
      call(
        'edit',
        JSON.stringify({
          command: 'str_replace',
          path: 'calc/ops.py',
          old_str: 'def add(a, b):\n    return a - b\n',
          new_str: 'def add(a, b):\n    return a + b\n',
        }),
      ),
    ],
    expect: {
      kind: 'actions',
      thought: 'The subtraction should be an addition.',
      actions: [
        {
          action: {
            tool: 'edit',
            command: 'str_replace',
            path: 'calc/ops.py',
            oldStr: 'def add(a, b):\n    return a - b\n',
            newStr: 'def add(a, b):\n    return a + b\n',
          },
          shape: 'native',
          callId: 'call_0',
        },
      ],
    },
  },
  {
    name: 'double-encoded arguments (a JSON string holding the object)',
    text: '',
    toolCalls: [call('bash', JSON.stringify(JSON.stringify({ command: 'python -m pytest -x -q' })))],
    expect: {
      kind: 'actions',
      actions: [{ action: bash('python -m pytest -x -q'), shape: 'native', callId: 'call_0' }],
    },
  },
  {
    name: 'raw newlines and tabs inside a JSON string (file_text written out)',
    text: '',
    toolCalls: [
      call('str_replace_editor', '{"command": "create", "path": "src/util.py", "file_text": "def f():\n\treturn 1\n"}'),
    ],
    expect: {
      kind: 'actions',
      actions: [
        {
          action: { tool: 'edit', command: 'create', path: 'src/util.py', fileText: 'def f():\n\treturn 1\n' },
          shape: 'native',
          callId: 'call_0',
        },
      ],
    },
  },
  {
    name: 'a backslash that is no JSON escape (a regex in a grep)',
    text: '',
    toolCalls: [call('functions.bash', String.raw`{"command": "grep -rn 'foo\.bar(' src/"}`)],
    expect: {
      kind: 'actions',
      actions: [{ action: bash(String.raw`grep -rn 'foo\.bar(' src/`), shape: 'native', callId: 'call_0' }],
    },
  },
  {
    name: 'text after the JSON object (an extra brace and a leaked end token)',
    text: '',
    toolCalls: [call('execute_bash', '{"command": "git status"}}<|im_end|>')],
    expect: { kind: 'actions', actions: [{ action: bash('git status'), shape: 'native', callId: 'call_0' }] },
  },
  {
    name: 'aliases: str_replace_based_edit_tool view with view_range as text, finish',
    text: '',
    toolCalls: [
      call('str_replace_based_edit_tool', '{"command": "view", "path": "README.md", "view_range": "[1, 40]"}', 'a'),
      call('finish', '{}', 'b'),
    ],
    expect: {
      kind: 'actions',
      actions: [
        {
          action: { tool: 'edit', command: 'view', path: 'README.md', viewRange: [1, 40] },
          shape: 'native',
          callId: 'a',
        },
        { action: { tool: 'submit' }, shape: 'native', callId: 'b' },
      ],
    },
  },
  {
    name: 'insert_line as a string, view_range -1 for the end',
    text: '',
    toolCalls: [
      call('edit', '{"command": "insert", "path": "a.py", "insert_line": "12", "new_str": "import os"}', 'a'),
      call('edit', '{"command": "view", "path": "a.py", "view_range": [30, -1]}', 'b'),
    ],
    expect: {
      kind: 'actions',
      actions: [
        {
          action: { tool: 'edit', command: 'insert', path: 'a.py', insertLine: 12, newStr: 'import os' },
          shape: 'native',
          callId: 'a',
        },
        { action: { tool: 'edit', command: 'view', path: 'a.py', viewRange: [30, -1] }, shape: 'native', callId: 'b' },
      ],
    },
  },
  {
    name: 'submit with empty arguments',
    text: 'All tests pass now.',
    toolCalls: [call('submit', '')],
    expect: {
      kind: 'actions',
      thought: 'All tests pass now.',
      actions: [{ action: { tool: 'submit' }, shape: 'native', callId: 'call_0' }],
    },
  },
  {
    name: 'an argv array for the command (the shape codex-trained models use)',
    text: '',
    toolCalls: [call('shell', '{"command": ["bash", "-lc", "cd src && ls"]}')],
    expect: { kind: 'actions', actions: [{ action: bash('cd src && ls'), shape: 'native', callId: 'call_0' }] },
  },
  {
    name: 'an argv array without a shell is quoted word by word',
    text: '',
    toolCalls: [call('bash', '{"command": ["grep", "-rn", "def main", "src"]}')],
    expect: {
      kind: 'actions',
      actions: [{ action: bash("grep -rn 'def main' src"), shape: 'native', callId: 'call_0' }],
    },
  },
  {
    name: "gpt-oss: a harmony channel leaked into the tool's name",
    text: '',
    toolCalls: [call('bash<|channel|>commentary', '{"command": "pwd"}')],
    expect: { kind: 'actions', actions: [{ action: bash('pwd'), shape: 'native', callId: 'call_0' }] },
  },
  {
    name: 'an editor command called as a tool of its own',
    text: '',
    toolCalls: [call('str_replace', '{"path": "a.py", "old_str": "x = 1", "new_str": "x = 2"}')],
    expect: {
      kind: 'actions',
      actions: [
        {
          action: { tool: 'edit', command: 'str_replace', path: 'a.py', oldStr: 'x = 1', newStr: 'x = 2' },
          shape: 'native',
          callId: 'call_0',
        },
      ],
    },
  },
  {
    name: 'str_replace without new_str deletes the text; file_path for path',
    text: '',
    toolCalls: [call('edit', '{"command": "str_replace", "file_path": " a.py ", "old_str": "print(x)\\n"}')],
    expect: {
      kind: 'actions',
      actions: [
        {
          action: { tool: 'edit', command: 'str_replace', path: 'a.py', oldStr: 'print(x)\n', newStr: '' },
          shape: 'native',
          callId: 'call_0',
        },
      ],
    },
  },
  {
    name: 'native calls win over calls in the text (Ollama sent both)',
    text: '<function=bash><parameter=command>rm -rf build</parameter></function>',
    toolCalls: [call('bash', '{"command": "ls"}')],
    expect: { kind: 'actions', actions: [{ action: bash('ls'), shape: 'native', callId: 'call_0' }] },
  },
  {
    name: 'native: arguments cut off mid-string',
    text: '',
    toolCalls: [call('edit', '{"command": "create", "path": "big.py", "file_text": "import os\\n\\ndef ma', 'call_9')],
    expect: {
      kind: 'malformed',
      callId: 'call_9',
      reason:
        /arguments of edit are not valid JSON; nothing was run\. Call edit with arguments like \{"command":"str_replace"/,
    },
  },
  {
    name: 'native: arguments cut at the provider ceiling',
    text: '',
    toolCalls: [
      call(
        'edit',
        `{"command": "create", "path": "big.py", "file_text": "${'x'.repeat(64 * 1024)}`.slice(0, 64 * 1024),
      ),
    ],
    expect: { kind: 'malformed', callId: 'call_0', reason: /longer than 64 KiB.*write a large file in parts/ },
  },
  {
    name: 'native: arguments that are JSON but no object',
    text: '',
    toolCalls: [call('bash', '"ls -la"')],
    expect: { kind: 'malformed', reason: /arguments of bash are not a JSON object.*\{"command":/ },
  },
  {
    name: 'native: an unknown tool',
    text: '',
    toolCalls: [call('read_file', '{"path": "a.py"}', 'call_r')],
    expect: {
      kind: 'malformed',
      callId: 'call_r',
      reason: /no tool named "read_file": the tools are bash, edit and submit/,
    },
  },
  {
    name: 'native: bash without a command',
    text: '',
    toolCalls: [call('bash', '{"cmd": ""}')],
    expect: { kind: 'malformed', reason: /bash needs "command": one shell command as a string/ },
  },
  {
    name: 'native: edit with an unknown command',
    text: '',
    toolCalls: [call('edit', '{"command": "write", "path": "a.py", "file_text": "x"}')],
    expect: {
      kind: 'malformed',
      reason: /edit needs "command", one of view, create, str_replace, insert, undo_edit \(got "write"\)/,
    },
  },
  {
    name: 'native: the second of two calls is malformed, nothing runs',
    text: '',
    toolCalls: [
      call('bash', '{"command": "ls"}', 'a'),
      call('edit', '{"command": "insert", "path": "a.py", "new_str": "x"}', 'b'),
    ],
    expect: {
      kind: 'malformed',
      callId: 'b',
      reason:
        /^Call 2 of 2: edit insert needs "insert_line".*none of the calls in this answer were run\. Call edit with arguments like \{"command":"insert","path":"src\/app\.py","insert_line":12/,
    },
  },
  {
    name: 'native: view_range that is no pair of numbers',
    text: '',
    toolCalls: [call('edit', '{"command": "view", "path": "a.py", "view_range": "lines 1 to 40"}')],
    expect: { kind: 'malformed', reason: /"view_range" must be two line numbers \[start, end\]/ },
  },
  {
    name: 'native: file_text given as a JSON object',
    text: '',
    toolCalls: [call('edit', '{"command": "create", "path": "p.json", "file_text": {"name": "x"}}')],
    expect: { kind: 'malformed', reason: /create needs "file_text"/ },
  },

  // ---- qwen3-coder XML ---------------------------------------------------------------------------
  {
    name: 'qwen3-coder: the canonical shape in <tool_call>, thought before',
    text: 'Let me look at the failing test first.\n\n<tool_call>\n<function=bash>\n<parameter=command>\npython -m pytest tests/test_ops.py -x -q\n</parameter>\n</function>\n</tool_call>',
    expect: {
      kind: 'actions',
      thought: 'Let me look at the failing test first.',
      actions: [{ action: bash('python -m pytest tests/test_ops.py -x -q'), shape: 'qwen-xml' }],
    },
  },
  {
    name: 'qwen3-coder leaked by Ollama: no <tool_call>, parameters on one line',
    text: 'I\'ll search for the function.\n<function=bash>\n<parameter=command>grep -rn "def parse_args" .</parameter>\n</function>',
    expect: { kind: 'actions', actions: [{ action: bash('grep -rn "def parse_args" .'), shape: 'qwen-xml' }] },
  },
  {
    name: 'qwen3-coder: create a Python file holding <, >, ->, tags and quotes; its last newline kept',
    text: `<tool_call>\n<function=edit>\n<parameter=command>\ncreate\n</parameter>\n<parameter=path>\nsrc/box.py\n</parameter>\n<parameter=file_text>\n${PY_WITH_BRACKETS}\n</parameter>\n</function>\n</tool_call>`,
    expect: {
      kind: 'actions',
      actions: [
        {
          action: { tool: 'edit', command: 'create', path: 'src/box.py', fileText: `${PY_WITH_BRACKETS}\n` },
          shape: 'qwen-xml',
        },
      ],
    },
  },
  {
    name: 'qwen3-coder: HTML in file_text, closing tags kept',
    text: `<function=edit>\n<parameter=command>create</parameter>\n<parameter=path>public/index.html</parameter>\n<parameter=file_text>\n${HTML}</parameter>\n</function>`,
    expect: {
      kind: 'actions',
      actions: [
        { action: { tool: 'edit', command: 'create', path: 'public/index.html', fileText: HTML }, shape: 'qwen-xml' },
      ],
    },
  },
  {
    name: 'qwen3-coder: a closed value may hold <parameter= and </function> inside a line',
    text: '<function=edit>\n<parameter=command>create</parameter>\n<parameter=path>docs/protocol.md</parameter>\n<parameter=file_text>\n# Protocol\nName each value with `<parameter=name>` and end the call with `</function>`.\n</parameter>\n</function>',
    expect: {
      kind: 'actions',
      actions: [
        {
          action: {
            tool: 'edit',
            command: 'create',
            path: 'docs/protocol.md',
            fileText: '# Protocol\nName each value with `<parameter=name>` and end the call with `</function>`.\n',
          },
          shape: 'qwen-xml',
        },
      ],
    },
  },
  {
    name: 'qwen3-coder: str_replace with indentation; one newline trimmed at each end of old_str/new_str',
    text: '<tool_call>\n<function=edit>\n<parameter=command>str_replace</parameter>\n<parameter=path>calc/ops.py</parameter>\n<parameter=old_str>\n    if a < b:\n        return a - b\n</parameter>\n<parameter=new_str>\n    if a <= b:\n        return a + b\n</parameter>\n</function>\n</tool_call>',
    expect: {
      kind: 'actions',
      actions: [
        {
          action: {
            tool: 'edit',
            command: 'str_replace',
            path: 'calc/ops.py',
            oldStr: '    if a < b:\n        return a - b',
            newStr: '    if a <= b:\n        return a + b',
          },
          shape: 'qwen-xml',
        },
      ],
    },
  },
  {
    name: 'qwen3-coder: an empty new_str deletes',
    text: '<function=edit>\n<parameter=command>str_replace</parameter>\n<parameter=path>a.py</parameter>\n<parameter=old_str>\nprint("debug")\n</parameter>\n<parameter=new_str>\n</parameter>\n</function>',
    expect: {
      kind: 'actions',
      actions: [
        {
          action: { tool: 'edit', command: 'str_replace', path: 'a.py', oldStr: 'print("debug")', newStr: '' },
          shape: 'qwen-xml',
        },
      ],
    },
  },
  {
    name: 'qwen3-coder: the answer ends inside the last parameter: cut off, nothing runs',
    text: 'Running the tests.\n<tool_call>\n<function=bash>\n<parameter=command>\ncd /workspace && python -m pytest -q\n',
    expect: {
      kind: 'malformed',
      reason: /ends inside a tool call that never closed.*none of the calls in it were run/,
    },
  },
  {
    name: 'qwen3-coder: </parameter> given but </function> and </tool_call> missing: cut off',
    text: '<tool_call>\n<function=edit>\n<parameter=command>view</parameter>\n<parameter=path>setup.py</parameter>\n',
    expect: { kind: 'malformed', reason: /cut off; none of the calls in it were run.*<function=bash>/ },
  },
  {
    name: 'qwen3-coder: a parameter left unclosed before the next one',
    text: '<function=edit>\n<parameter=command>view\n<parameter=path>src/main.rs</parameter>\n<parameter=view_range>[10, 60]</parameter>\n</function>',
    expect: {
      kind: 'actions',
      actions: [
        { action: { tool: 'edit', command: 'view', path: 'src/main.rs', viewRange: [10, 60] }, shape: 'qwen-xml' },
      ],
    },
  },
  {
    name: 'qwen3-coder: insert_line and view_range as text',
    text: '<function=edit>\n<parameter=command>insert</parameter>\n<parameter=path>main.go</parameter>\n<parameter=insert_line>\n12\n</parameter>\n<parameter=new_str>\n\tif err != nil {\n\t\treturn err\n\t}\n</parameter>\n</function>',
    expect: {
      kind: 'actions',
      actions: [
        {
          action: {
            tool: 'edit',
            command: 'insert',
            path: 'main.go',
            insertLine: 12,
            newStr: '\tif err != nil {\n\t\treturn err\n\t}',
          },
          shape: 'qwen-xml',
        },
      ],
    },
  },
  {
    name: 'qwen3-coder: several calls in one answer, thought between them',
    text: 'First the file.\n<tool_call>\n<function=edit>\n<parameter=command>view</parameter>\n<parameter=path>lib/index.js</parameter>\n</function>\n</tool_call>\nThen the tests.\n<tool_call>\n<function=bash>\n<parameter=command>npm test -- --silent</parameter>\n</function>\n</tool_call>',
    expect: {
      kind: 'actions',
      thought: 'First the file.\n\nThen the tests.',
      actions: [
        { action: { tool: 'edit', command: 'view', path: 'lib/index.js' }, shape: 'qwen-xml' },
        { action: bash('npm test -- --silent'), shape: 'qwen-xml' },
      ],
    },
  },
  {
    name: 'qwen3-coder: a call inside <think> is thinking, the one after it runs',
    text: '<think>\nMaybe <function=bash><parameter=command>rm -rf /</parameter></function> would help. No.\n</think>\nI will run the tests.\n<function=bash>\n<parameter=command>go test ./...</parameter>\n</function>',
    expect: {
      kind: 'actions',
      thought: 'I will run the tests.',
      actions: [{ action: bash('go test ./...'), shape: 'qwen-xml' }],
    },
  },
  {
    name: 'qwen3 thinking template: reasoning ends with a lone </think>, a call before it is thinking',
    text: 'The user wants... I could call <function=bash><parameter=command>ls</parameter></function>\n</think>\n\n<tool_call>\n<function=bash>\n<parameter=command>cargo test</parameter>\n</function>\n</tool_call>',
    expect: { kind: 'actions', actions: [{ action: bash('cargo test'), shape: 'qwen-xml' }] },
  },
  {
    name: 'the only call is inside <think>: no call',
    text: '<think>I should run <function=bash><parameter=command>ls</parameter></function></think>\nLet me think about the design first.',
    expect: { kind: 'none', thought: 'Let me think about the design first.' },
  },
  {
    name: 'qwen3-coder: the call wrapped in a ```xml fence',
    text: 'Next:\n```xml\n<tool_call>\n<function=bash>\n<parameter=command>ls -R src | head -50</parameter>\n</function>\n</tool_call>\n```',
    expect: { kind: 'actions', actions: [{ action: bash('ls -R src | head -50'), shape: 'qwen-xml' }] },
  },
  {
    name: 'qwen3-coder: a README holding ``` fences and a <tool_call> example as text',
    text: '<function=edit>\n<parameter=command>create</parameter>\n<parameter=path>README.md</parameter>\n<parameter=file_text>\n# calc\n\n```bash\npip install calc\n```\n\nCalls look like `<tool_call>{...}</tool_call>`.\n</parameter>\n</function>',
    expect: {
      kind: 'actions',
      actions: [
        {
          action: {
            tool: 'edit',
            command: 'create',
            path: 'README.md',
            fileText: '# calc\n\n```bash\npip install calc\n```\n\nCalls look like `<tool_call>{...}</tool_call>`.\n',
          },
          shape: 'qwen-xml',
        },
      ],
    },
  },
  {
    name: 'Anthropic-style <invoke name=...> with <parameter name=...>',
    text: '<function_calls>\n<invoke name="str_replace_based_edit_tool">\n<parameter name="command">view</parameter>\n<parameter name="path">src/app.ts</parameter>\n</invoke>\n</function_calls>',
    expect: {
      kind: 'actions',
      actions: [{ action: { tool: 'edit', command: 'view', path: 'src/app.ts' }, shape: 'qwen-xml' }],
    },
  },
  {
    name: "Llama 3.1's <function=NAME>{json}</function>",
    text: '<function=bash>{"command": "ls tests"}</function>',
    expect: { kind: 'actions', actions: [{ action: bash('ls tests'), shape: 'qwen-xml' }] },
  },
  {
    name: 'qwen3-coder: an unknown tool is answered in the XML shape',
    text: '<function=read_file>\n<parameter=path>a.py</parameter>\n</function>',
    expect: {
      kind: 'malformed',
      reason: /no tool named "read_file".*nothing was run\. Write the call as <function=bash><parameter=command>/,
    },
  },
  {
    name: 'qwen3-coder: str_replace without old_str',
    text: '<function=edit>\n<parameter=command>str_replace</parameter>\n<parameter=path>a.py</parameter>\n<parameter=new_str>x = 2</parameter>\n</function>',
    expect: {
      kind: 'malformed',
      reason: /str_replace needs "old_str".*<function=edit><parameter=command>str_replace<\/parameter><parameter=path>/,
    },
  },
  {
    name: 'qwen3-coder: the second call is malformed',
    text: '<function=bash><parameter=command>ls</parameter></function>\n<function=edit><parameter=command>create</parameter><parameter=path>b.py</parameter></function>',
    expect: {
      kind: 'malformed',
      reason: /^Call 2 of 2: edit create needs "file_text".*none of the calls in this answer were run/,
    },
  },
  {
    name: 'a <tool_call> whose content is neither XML nor JSON',
    text: '<tool_call>\nbash: ls -la\n</tool_call>',
    expect: {
      kind: 'malformed',
      reason: /a tool call was started but its name and parameters could not be read.*<function=bash>/,
    },
  },

  // ---- JSON in the text --------------------------------------------------------------------------
  {
    name: 'Hermes / Qwen2.5-Coder: JSON in <tool_call> tags',
    text: 'I need to see the tests.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls tests/"}}\n</tool_call>',
    expect: {
      kind: 'actions',
      thought: 'I need to see the tests.',
      actions: [{ action: bash('ls tests/'), shape: 'json' }],
    },
  },
  {
    name: 'Qwen2.5-Coder: arguments as a JSON string, file_text with raw newlines',
    text: '<tool_call>\n{"name": "edit", "arguments": "{\\"command\\": \\"create\\", \\"path\\": \\"t.py\\", \\"file_text\\": \\"x = 1\\\\n\\"}"}\n</tool_call>\n<tool_call>\n{"name": "edit", "arguments": {"command": "create", "path": "u.py", "file_text": "def f():\n    return \\"<ok>\\"\n"}}\n</tool_call>',
    expect: {
      kind: 'actions',
      actions: [
        { action: { tool: 'edit', command: 'create', path: 't.py', fileText: 'x = 1\n' }, shape: 'json' },
        {
          action: { tool: 'edit', command: 'create', path: 'u.py', fileText: 'def f():\n    return "<ok>"\n' },
          shape: 'json',
        },
      ],
    },
  },
  {
    name: 'Qwen2.5-Coder: two <tool_call> blocks',
    text: '<tool_call>\n{"name": "edit", "arguments": {"command": "view", "path": "a.py"}}\n</tool_call>\n<tool_call>\n{"name": "edit", "arguments": {"command": "view", "path": "b.py"}}\n</tool_call>',
    expect: {
      kind: 'actions',
      actions: [
        { action: { tool: 'edit', command: 'view', path: 'a.py' }, shape: 'json' },
        { action: { tool: 'edit', command: 'view', path: 'b.py' }, shape: 'json' },
      ],
    },
  },
  {
    name: 'Llama 3: a bare call object with "parameters"',
    text: '{"name": "bash", "parameters": {"command": "python -m pytest -q"}}',
    expect: { kind: 'actions', actions: [{ action: bash('python -m pytest -q'), shape: 'json' }] },
  },
  {
    name: 'Llama 3.1: <|python_tag|> before the object',
    text: '<|python_tag|>{"name": "submit", "parameters": {}}',
    expect: { kind: 'actions', actions: [{ action: { tool: 'submit' }, shape: 'json' }] },
  },
  {
    name: 'OpenAI-ish object with arguments as a JSON string, in a ```json fence',
    text: 'Viewing it:\n```json\n{"type": "function", "function": {"name": "str_replace_editor", "arguments": "{\\"command\\": \\"view\\", \\"path\\": \\"src/lib.rs\\"}"}}\n```',
    expect: {
      kind: 'actions',
      thought: 'Viewing it:',
      actions: [{ action: { tool: 'edit', command: 'view', path: 'src/lib.rs' }, shape: 'json' }],
    },
  },
  {
    name: '{"tool": ..., "parameters": ...}',
    text: '```json\n{"tool": "shell", "parameters": {"command": "cat go.mod"}}\n```',
    expect: { kind: 'actions', actions: [{ action: bash('cat go.mod'), shape: 'json' }] },
  },
  {
    name: 'Devstral: [TOOL_CALLS] with a JSON list',
    text: '[TOOL_CALLS][{"name": "bash", "arguments": {"command": "ls"}}, {"name": "edit", "arguments": {"command": "view", "path": "x.py"}}]',
    expect: {
      kind: 'actions',
      actions: [
        { action: bash('ls'), shape: 'json' },
        { action: { tool: 'edit', command: 'view', path: 'x.py' }, shape: 'json' },
      ],
    },
  },
  {
    name: 'Devstral (newer template): [TOOL_CALLS]name[ARGS]{...}',
    text: 'Let me check.[TOOL_CALLS]bash[ARGS]{"command": "git diff"}',
    expect: { kind: 'actions', thought: 'Let me check.', actions: [{ action: bash('git diff'), shape: 'json' }] },
  },
  {
    name: 'JSON that only shows data is no call',
    text: 'The package file should read:\n```json\n{"name": "calc", "version": "1.0.0"}\n```\nShall I continue?',
    expect: { kind: 'none' },
  },
  {
    name: 'broken JSON inside <tool_call>',
    text: '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"\n</tool_call>',
    expect: {
      kind: 'malformed',
      reason: /the call is not valid JSON.*Write the call as <tool_call>\{"name": "bash", "arguments": \{"command":/,
    },
  },
  {
    name: 'JSON call with an unknown tool',
    text: '<tool_call>\n{"name": "search", "arguments": {"query": "def add"}}\n</tool_call>',
    expect: { kind: 'malformed', reason: /no tool named "search"/ },
  },

  // ---- one fenced block --------------------------------------------------------------------------
  {
    name: 'mini-swe-agent: THOUGHT then one ```bash block',
    text: 'THOUGHT: I need to find where the parser lives.\n\n```bash\ngrep -rn "def parse" --include=*.py .\n```',
    expect: {
      kind: 'actions',
      thought: 'THOUGHT: I need to find where the parser lives.',
      actions: [{ action: bash('grep -rn "def parse" --include=*.py .'), shape: 'fenced' }],
    },
  },
  {
    name: 'a ```sh block with a heredoc (multi-line command kept)',
    text: "```sh\ncat > /tmp/t.py <<'EOF'\nprint(1 < 2)\nEOF\npython /tmp/t.py\n```",
    expect: {
      kind: 'actions',
      actions: [{ action: bash("cat > /tmp/t.py <<'EOF'\nprint(1 < 2)\nEOF\npython /tmp/t.py"), shape: 'fenced' }],
    },
  },
  {
    name: "mini-swe-agent's submit command",
    text: 'THOUGHT: done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```',
    expect: { kind: 'actions', actions: [{ action: { tool: 'submit' }, shape: 'fenced' }] },
  },
  {
    name: 'a ```bash block beside a ```python block: the bash block is the action',
    text: 'The fix is:\n```python\ndef f():\n    return 1\n```\nTesting it:\n```bash\npython -c "import m; print(m.f())"\n```',
    expect: { kind: 'actions', actions: [{ action: bash('python -c "import m; print(m.f())"'), shape: 'fenced' }] },
  },
  {
    name: 'two ```bash blocks',
    text: '```bash\nls\n```\nand then\n```bash\npytest\n```',
    expect: { kind: 'malformed', reason: /holds 2 ```bash blocks; nothing was run\. Send exactly one command a turn/ },
  },
  {
    name: 'a ```bash block cut off',
    text: 'Running:\n```bash\npython -m pytest tests/ -k "test_',
    expect: { kind: 'malformed', reason: /has no closing ``` \(the answer was cut off\); nothing was run/ },
  },
  {
    name: 'a ```bash block beside an XML call is an illustration, not a call',
    text: 'You could also run:\n```bash\nmake clean\n```\n<function=bash><parameter=command>make test</parameter></function>',
    expect: { kind: 'actions', actions: [{ action: bash('make test'), shape: 'qwen-xml' }] },
  },

  // ---- talk ----------------------------------------------------------------------------------------
  {
    name: 'an answer that only talks',
    text: 'I have looked at the code and I believe the bug is in the tokenizer. I will fix it next.',
    expect: {
      kind: 'none',
      thought: 'I have looked at the code and I believe the bug is in the tokenizer. I will fix it next.',
    },
  },
  {
    name: 'a ```python block only',
    text: 'Here is the fix:\n```python\ndef add(a, b):\n    return a + b\n```',
    expect: { kind: 'none' },
  },
  {
    name: 'an empty answer',
    text: '',
    expect: { kind: 'none', thought: '' },
  },
  {
    name: 'thinking only',
    text: '<think>\nHmm, which file?\n</think>\n',
    expect: { kind: 'none', thought: '' },
  },
];
