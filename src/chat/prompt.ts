// What a conversation tells the model (pure): the system message (who it talks to, the tools, the
// rules, read-only mode), the note that goes with a message after the mode changed, and what a
// plan asks for.
import { sanitizeText } from '../text/sanitize.js';
import type { ChatMode } from '../state/conversation.js';

/** What the system message says besides the fixed text. */
export interface ChatPromptOptions {
  testCommand: string;
  /** Seconds a bash command may run. */
  commandTimeoutS: number;
  /** The tools go to the server natively; otherwise the text protocol below is taught. */
  native: boolean;
  /** The text protocol's description (the agent's tool specs as text). */
  toolsText: string;
}

/** The system message of a conversation about a repository. */
export function chatSystemMessage(opts: ChatPromptOptions): string {
  const protocol = opts.native ? '' : `\n\n${opts.toolsText.trim()}`;
  const command = sanitizeText(opts.testCommand).replace(/[`\n]/g, ' ');
  return `You are a careful software engineer talking with a person about their git repository. The
repository is at /workspace in a sandbox: a Linux container without network access, holding the
person's last commit. You can work in it with these tools, one call at a time, reading each result
before the next:

- bash: run one shell command (\`command\`). Each command runs in a fresh \`sh\`, in the directory the
  previous command ended in; other shell state does not carry over. Anything a command starts in the
  background is killed when it ends, and the command itself after ${opts.commandTimeoutS} s.
- edit: view, create and change one file (\`path\`, relative to the repository root): \`view\`,
  \`create\`, \`str_replace\`, \`insert\`, \`undo_edit\`.
- submit: when a change the person asked for is done, hand it to them.

When you have what you need, answer the person in plain words, without a tool call: that ends your
turn. Be brief and concrete: name the files and functions, quote the lines that matter, say what you
ran and what it showed. Show commands in a fenced block only when the person should run them.

Rules:
- Change files only when the person asks for a change, and only what it needs.
- Edits to CI configuration, .gitattributes, .gitmodules, package scripts, anything in .git, symbolic
  links and edits that break a file's syntax are refused.
- The repository's tests run with \`${command}\`.
- The person may switch you to read-only mode: then edits are refused and every change a command
  makes to the files is undone after it; read, run and explain, and describe changes instead of
  making them.${protocol}`;
}

/** The note that goes before the person's next message when the mode changed (or the first message of a read-only conversation). */
export function modeNote(mode: ChatMode): string {
  return mode === 'plan'
    ? '[Read-only mode: edits are refused and the changes your commands make to the files are undone. Read, run and explain; describe changes instead of making them.]'
    : '[Code mode: you may edit files again when the person asks for a change.]';
}

/** The headings a plan must have, in order (plan.md is written from the model's answer). */
export const PLAN_SECTIONS = ['Goal', 'Constraints', 'Files and functions', 'Steps', 'Tests'] as const;

/** The message that asks for a plan. */
export function planRequest(goal: string, constraints: readonly string[]): string {
  const given =
    constraints.length === 0
      ? ''
      : `\n\nConstraints the person set:\n${constraints.map((c) => `- ${sanitizeText(c).trim()}`).join('\n')}`;
  return `Make a plan for this goal. Do not change anything: read the code and run what helps you (the
tests, grep, the toolchain) until you know what has to change and where.

Goal: ${sanitizeText(goal).trim()}${given}

Then answer, without a tool call, with the plan in Markdown, exactly these sections:

# Plan: <the goal in a few words>
## Goal
<what should be true when it is done, in a few sentences>
## Constraints
<bullets: what must not change, compatibility, the person's constraints>
## Files and functions
<bullets: \`path\`: the functions or classes involved and why>
## Steps
<numbered steps, each small enough to check>
## Tests
<bullets: the tests that should pass afterwards (existing ones by name, new ones to write), and the command that runs them>`;
}

/** The sections a plan answer lacks (empty: it has them all). */
export function missingPlanSections(text: string): string[] {
  const headings = [...text.matchAll(/^#{1,3}\s+(.+?)\s*#*\s*$/gm)].map((m) => m[1]!.toLowerCase());
  const missing = PLAN_SECTIONS.filter((s) => !headings.some((h) => h.startsWith(s.toLowerCase())));
  const steps = /^\s*1[.)]\s+\S/m.test(text) ? [] : ['numbered steps'];
  return [...missing, ...(missing.includes('Steps') ? [] : steps)];
}

/** The message that asks again for a plan missing sections. */
export function planAgain(missing: readonly string[]): string {
  return `Your plan lacks: ${missing.join(', ')}. Answer again with the whole plan, without a tool call, in exactly the form asked: # Plan, then ## Goal, ## Constraints, ## Files and functions, ## Steps (numbered), ## Tests.`;
}
