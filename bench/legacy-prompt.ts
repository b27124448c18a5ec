// The prompt as it was built before src/context (kept for `make bench BENCH=context` to compare):
// directive, status and test output first, then the diff, the tree and the heads of files.
import type { PromptLimits } from '../src/loop/prompt.js';
import type { EditFormat } from '../src/edits/index.js';
import { fenceFor } from '../src/text/markdown.js';
import { sanitizeText } from '../src/text/sanitize.js';
import type { TestRecord } from '../src/state/run-state.js';
import type { ContextReason } from './legacy-context.js';
import { systemMessage } from '../src/loop/prompt-text.js';
import { testStatus } from '../src/verdict/index.js';

/** A file's content as shown to the model. */
export interface PromptFile {
  path: string;
  content: string;
  reason: ContextReason;
  /** Only the start of the file is shown. */
  truncated: boolean;
}

/** Everything one prompt is built from. */
export interface PromptInput {
  directive: string;
  iteration: number;
  maxIterations: number;
  /** Where the loop stands (see stabilitySignal). */
  signal: string;
  /** The diff of the work so far against the base commit ('' when none). */
  diffSoFar: string;
  /** The latest test run (baseline or after the last patch). */
  lastTest: TestRecord | null;
  /** The last rejected patch and git's message for it. */
  lastRejection: { patch: string; message: string } | null;
  /** Repo file paths. */
  tree: readonly string[];
  files: readonly PromptFile[];
  limits: PromptLimits;
  /** Shown to the model as the diff size limit. */
  maxDiffLines?: number;
  /** The answer format the system message teaches (default auto). */
  editFormat?: EditFormat;
  /** `[edits] strict`: unified diffs applied as written only. */
  strict?: boolean;
}

/** One chat message. */
export interface PromptMessage {
  role: 'system' | 'user';
  content: string;
}

/** The built prompt and its size. */
export interface BuiltPrompt {
  messages: [PromptMessage, PromptMessage];
  chars: number;
}

const REASON_LABEL: Record<ContextReason, string> = {
  directive: 'named in the directive',
  test_output: 'in the failing test output',
  changed: 'changed so far',
};

/** Build the system and user messages for one iteration. */
export function buildPrompt(input: PromptInput): BuiltPrompt {
  const { limits } = input;
  const parts: string[] = [];
  parts.push(`# Directive\n\n${sanitizeText(input.directive).trim()}`);
  parts.push(
    `# Iteration\n\nIteration ${input.iteration} of ${input.maxIterations}. Status: ${sanitizeText(input.signal)}.`,
  );
  parts.push(renderTest(input.lastTest, limits));
  if (input.lastRejection !== null) {
    const patch = capMiddle(sanitizeText(input.lastRejection.patch), Math.floor(limits.budget_chars / 4));
    const isDiff = /^(diff --git |--- )/m.test(patch);
    parts.push(
      `# Last rejected patch\n\nIt could not be applied; nothing of it was committed:\n\n${block(sanitizeText(input.lastRejection.message).trim())}\n\n` +
        `The rejected patch was:\n\n${block(patch, isDiff ? 'diff' : '')}`,
    );
  }
  const diff = sanitizeText(input.diffSoFar);
  parts.push(
    diff.trim() === ''
      ? '# Changes so far\n\nNone yet: the repository is at the base commit.'
      : `# Changes so far (diff against the base commit, already committed)\n\n${block(capMiddle(diff, Math.floor(limits.budget_chars / 3)), 'diff')}`,
  );
  parts.push(renderTree(input.tree, limits.tree_max_entries));
  parts.push(renderFiles(input.files, limits));
  const user = `${parts.join('\n\n')}\n`;
  const system = systemMessage(input.maxDiffLines, input.editFormat, input.strict);
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    chars: system.length + user.length,
  };
}

/** The prompt as one markdown document, for the run's artifacts. */
export function renderPromptArtifact(prompt: BuiltPrompt): string {
  return prompt.messages.map((m) => `<!-- ${m.role} -->\n\n${m.content.trimEnd()}\n`).join('\n');
}

/** Keep the first `head` and last `tail` lines of text, with a marker saying how many were left out. */
export function headTailLines(text: string, head: number, tail: number): string {
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.length <= head + tail) return lines.join('\n');
  const omitted = lines.length - head - tail;
  return [...lines.slice(0, head), `[... ${omitted} lines omitted ...]`, ...(tail > 0 ? lines.slice(-tail) : [])].join(
    '\n',
  );
}

function renderTest(test: TestRecord | null, limits: PromptLimits): string {
  if (test === null) return '# Last test run\n\nThe tests have not run yet.';
  const out: string[] = [
    `# Last test run\n\nCommand: \`${sanitizeText(test.command).replace(/\n/g, ' ')}\`\nResult: ${test.exit_code === 0 && !test.timed_out ? 'passed' : 'failed'} (${testStatus(test)})`,
  ];
  for (const [name, text] of [
    ['stdout', test.stdout_tail],
    ['stderr', test.stderr_tail],
  ] as const) {
    const clean = sanitizeText(text);
    if (clean.trim() === '') continue;
    out.push(`${name}:\n\n${block(headTailLines(clean, limits.output_head_lines, limits.output_tail_lines))}`);
  }
  return out.join('\n\n');
}

function renderTree(tree: readonly string[], max: number): string {
  const sorted = [...tree].sort();
  const shown = sorted.slice(0, max).map((p) => sanitizeText(p).replace(/\n/g, ' '));
  const more = sorted.length - shown.length;
  const tail = more > 0 ? `\n... and ${more} more files` : '';
  return `# Files in the repository (${sorted.length})\n\n${block(`${shown.join('\n')}${tail}`)}`;
}

function renderFiles(files: readonly PromptFile[], limits: PromptLimits): string {
  if (files.length === 0) return '# Relevant files\n\nNone selected.';
  let left = limits.budget_chars;
  const parts: string[] = ['# Relevant files'];
  for (const f of files) {
    const room = Math.min(limits.file_max_bytes, left);
    if (room <= 0) break;
    let content = sanitizeText(f.content);
    let truncated = f.truncated;
    if (content.length > room) {
      content = content.slice(0, room);
      truncated = true;
    }
    left -= content.length;
    const marker = truncated ? '\n[... truncated: the rest of the file is not shown ...]' : '';
    parts.push(
      `## ${sanitizeText(f.path).replace(/\n/g, ' ')} (${REASON_LABEL[f.reason]})\n\n${block(`${content.replace(/\n$/, '')}${marker}`)}`,
    );
  }
  return parts.join('\n\n');
}

function block(content: string, info = ''): string {
  return `${fenceFor(content)}${info}\n${content.replace(/\n$/, '')}\n${fenceFor(content)}`;
}

function capMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[... ${text.length - 2 * half} characters omitted ...]\n${text.slice(-half)}`;
}
