// Agent mode's prompt: the system message that explains the tools and the rules, and the task
// message with the directive, an orientation and where the loop stands (pure). Stable parts first.
import { sanitizeText } from '../../text/sanitize.js';
import { renderMap } from '../prompt-context.js';
import { block, capMiddle, renderTest, renderTree, type BuiltPrompt, type PromptInput } from '../prompt.js';

/** What the agent's prompt says besides the iteration's inputs. */
export interface AgentPromptOptions {
  /** The test command the loop runs after submit. */
  testCommand: string;
  /** Seconds a bash command may run. */
  commandTimeoutS: number;
  /** Seconds the test command may run when bash runs it (the test run's limit); absent: the shell's. */
  testTimeoutS?: number;
  /** The tools go to the server natively; otherwise the text protocol below is taught. */
  native: boolean;
  /** The text protocol's description (the agent's tool specs as text). */
  toolsText: string;
  /** Tool calls this trajectory may make. */
  maxSteps: number;
}

/** The system and task messages of one agent iteration. */
export function buildAgentPrompt(
  input: Omit<PromptInput, 'maxDiffLines' | 'editFormat' | 'strict' | 'maxAsks'>,
  opts: AgentPromptOptions,
): BuiltPrompt {
  const parts: string[] = [`# Directive\n\n${sanitizeText(input.directive).trim()}`];
  parts.push(renderTree(input.tree, input.limits.tree_max_entries));
  const map = renderMap(input.context.map);
  if (map !== '') parts.push(map);
  parts.push(renderTest(input.lastTest));
  const diff = sanitizeText(input.diffSoFar);
  parts.push(
    diff.trim() === ''
      ? '# Changes so far\n\nNone yet: the repository is at the base commit.'
      : `# Changes so far (committed; the workspace starts from them)\n\n${block(capMiddle(diff, Math.floor(input.limits.budget_chars / 3)), 'diff')}`,
  );
  parts.push(
    `# Iteration\n\nIteration ${input.iteration} of ${input.maxIterations}. Status: ${sanitizeText(input.signal)}.`,
  );
  if (input.lastRejection !== null) {
    parts.push(
      `# Last rejected change\n\nIt could not be applied; nothing of it was committed:\n\n${block(sanitizeText(input.lastRejection.message).trim())}`,
    );
  }
  const user = `${parts.join('\n\n')}\n`;
  const system = agentSystemMessage(opts);
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    chars: system.length + user.length,
  };
}

/** The system message: the role, the tools and the rules. */
export function agentSystemMessage(opts: AgentPromptOptions): string {
  const protocol = opts.native ? '' : `\n\n${opts.toolsText.trim()}`;
  const command = sanitizeText(opts.testCommand).replace(/[`\n]/g, ' ');
  return `You are a careful software engineer working in a git repository through an automated loop. The
repository is at /workspace in a sandbox: a Linux container without network access. Carry out the
directive with these tools, one call per answer, and read each result before the next call:

- bash: run one shell command (\`command\`). Each command runs in a fresh \`sh\`, in the directory the
  previous command ended in (at first the repository root); variables and other shell state do not
  carry over. Anything a command starts in the background is killed when it ends, and the command
  itself after ${opts.commandTimeoutS} s${opts.testTimeoutS !== undefined && opts.testTimeoutS > opts.commandTimeoutS ? ` (the test command, \`${command}\`, with or without more arguments, after ${opts.testTimeoutS} s)` : ''}. Its output is cut to the first and last lines.
- edit: work on one file (\`path\`, relative to the repository root): \`view\` (numbered lines;
  \`view_range\` [first, last]), \`create\` (\`file_text\`; the file must not exist), \`str_replace\`
  (\`old_str\` must match exactly once, whitespace included; \`new_str\` replaces it), \`insert\`
  (\`new_str\` after line \`insert_line\`; 0 is the top), \`undo_edit\` (your last edit of that file).
- submit: when the change is done, hand it in. What you submit is every file of the work tree that
  differs from the last commit; remove scratch files first.

Rules:
- Change only what the directive needs. Do not change the tests unless the directive says so.
- Edits to CI configuration, .gitattributes, .gitmodules, package scripts, anything in .git, symbolic
  links and edits that break a file's syntax are refused; so are binary files in what you submit.
- After you submit, the loop runs the tests: \`${command}\`. Run the failing tests yourself first
  and submit once they pass.
- You have at most ${opts.maxSteps} tool calls.${protocol}`;
}
