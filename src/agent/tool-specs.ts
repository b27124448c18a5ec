// The three tools offered to the model, in the schema models are trained on: `bash` with `command`,
// the widely used editor (`command`, `path`, `file_text`, `old_str`, `new_str`, `insert_line`,
// `view_range`) and `submit`; as native tool specs, and as the text protocol's system-prompt part.
import type { ToolSpec } from '../llm/types.js';
import { xmlExample } from './examples.js';
import { EDIT_COMMANDS } from './to-action.js';

const BASH_DESCRIPTION =
  'Run one shell command in the repository (the working copy, in a sandbox without network) and get its exit code and output. ' +
  'Each command runs in a fresh shell that starts where the previous command ended (`cd` carries over); ' +
  'exported variables and other shell state do not, so chain steps that need them with &&. Long output is cut to its start and end. ' +
  'A command that waits for input or runs too long is killed.';

const EDIT_DESCRIPTION = [
  'View, create and edit files. Paths are relative to the repository root.',
  '* view: show a file with line numbers (`cat -n`); view_range [start, end] shows part of it (end -1 for the end of the file).',
  '* create: write a new file with file_text (refuses a file that exists).',
  '* str_replace: replace old_str with new_str. old_str must match exactly one place in the file, whitespace and indentation included: copy it from a view, with enough lines around it to be unique. new_str may be empty to delete.',
  '* insert: insert new_str after line insert_line (0 for the top of the file).',
  '* undo_edit: revert the last change made to the file at path.',
].join('\n');

const SUBMIT_DESCRIPTION =
  'Finish: submit the changes in the working copy as your solution. Call it once the task is done; the tests are run after.';

/** The three tools as native tool specs (JSON schema): bash{command}, edit{command,path,file_text,old_str,new_str,insert_line,view_range}, submit{}. */
export const AGENT_TOOLS: readonly ToolSpec[] = [
  {
    name: 'bash',
    description: BASH_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', description: 'The shell command to run.' } },
      required: ['command'],
    },
  },
  {
    name: 'edit',
    description: EDIT_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', enum: [...EDIT_COMMANDS], description: 'The command to run.' },
        path: { type: 'string', description: 'The file, relative to the repository root.' },
        file_text: { type: 'string', description: 'create: the whole content of the new file.' },
        old_str: { type: 'string', description: 'str_replace: the exact text to replace (it must match once).' },
        new_str: { type: 'string', description: 'str_replace: the replacement; insert: the text to insert.' },
        insert_line: { type: 'integer', minimum: 0, description: 'insert: the line to insert after (0 for the top).' },
        view_range: {
          type: 'array',
          items: { type: 'integer' },
          minItems: 2,
          maxItems: 2,
          description: 'view: [start, end] line numbers, 1-based and inclusive; end -1 for the end of the file.',
        },
      },
      required: ['command', 'path'],
    },
  },
  {
    name: 'submit',
    description: SUBMIT_DESCRIPTION,
    parameters: { type: 'object', properties: {}, required: [] },
  },
];

/** The same tools described for the text protocol (system-prompt text: the qwen3-coder XML shape, one example per tool). */
export function agentToolsText(): string {
  return [
    '# Tools',
    '',
    'You work by calling tools. To call one, write it in this form (values are raw text: no quotes, no escaping; a value may span lines):',
    '',
    '<tool_call>',
    '<function=TOOL_NAME>',
    '<parameter=PARAMETER_NAME>',
    'value',
    '</parameter>',
    '</function>',
    '</tool_call>',
    '',
    'Think first in plain text if you like, then call. Each call is answered with its result before you go on.',
    '',
    '## bash',
    '',
    BASH_DESCRIPTION,
    'Parameters: command (required).',
    '',
    xmlExample('bash', { wrap: true }),
    '',
    '## edit',
    '',
    EDIT_DESCRIPTION,
    'Parameters: command (required: view, create, str_replace, insert or undo_edit), path (required), file_text, old_str, new_str, insert_line, view_range.',
    '',
    xmlExample('str_replace', { wrap: true }),
    '',
    '## submit',
    '',
    SUBMIT_DESCRIPTION,
    'No parameters.',
    '',
    xmlExample('submit', { wrap: true }),
    '',
  ].join('\n');
}
