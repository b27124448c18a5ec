// Step 2's input: the prompt, rebuilt from the state every iteration (the model holds no memory).
import type { Config } from '../config/schema.js';
import type { EditFormat } from '../edits/index.js';
import { fenceFor } from '../text/markdown.js';
import { sanitizeText } from '../text/sanitize.js';
import type { TestRecord } from '../state/run-state.js';
import { renderFocusParts, renderMap, renderShownFiles, type PromptContext } from './prompt-context.js';
import { systemMessage } from './prompt-text.js';
import { testStatus } from '../verdict/index.js';

/** The [prompt] settings the prompt is built with (the directive's cap is applied when it is read). */
export type PromptLimits = Omit<Config['prompt'], 'directive_max_bytes'>;

export type { PromptContext } from './prompt-context.js';

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
  /** The files, regions and map the context layer chose. */
  context: PromptContext;
  limits: PromptLimits;
  /** Shown to the model as the diff size limit. */
  maxDiffLines?: number;
  /** The answer format the system message teaches (default auto). */
  editFormat?: EditFormat;
  /** `[edits] strict`: unified diffs applied as written only. */
  strict?: boolean;
  /** Requests to see more the model may make per iteration (0 or absent: not taught). */
  maxAsks?: number;
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

/**
 * Build the system and user messages for one iteration. What stays the same between iterations comes
 * first (system, directive, tree, map, files without their parts in focus), what changes last (the
 * last test run, the changes so far, the code in focus as it is now, the iteration and its status,
 * the last rejection): a local server reuses the cached prefix.
 */
export function buildPrompt(input: PromptInput): BuiltPrompt {
  const { limits } = input;
  const parts: string[] = [];
  parts.push(`# Directive\n\n${sanitizeText(input.directive).trim()}`);
  parts.push(renderTree(input.tree, limits.tree_max_entries));
  const map = renderMap(input.context.map);
  if (map !== '') parts.push(map);
  parts.push(renderShownFiles(input.context));
  parts.push(renderTest(input.lastTest));
  const diff = sanitizeText(input.diffSoFar);
  parts.push(
    diff.trim() === ''
      ? '# Changes so far\n\nNone yet: the repository is at the base commit.'
      : `# Changes so far (diff against the base commit, already committed)\n\n${block(capMiddle(diff, Math.floor(limits.budget_chars / 3)), 'diff')}`,
  );
  const focus = renderFocusParts(input.context);
  if (focus !== '') parts.push(focus);
  parts.push(
    `# Iteration\n\nIteration ${input.iteration} of ${input.maxIterations}. Status: ${sanitizeText(input.signal)}.`,
  );
  if (input.lastRejection !== null) {
    const patch = capMiddle(sanitizeText(input.lastRejection.patch), Math.floor(limits.budget_chars / 4));
    const isDiff = /^(diff --git |--- )/m.test(patch);
    parts.push(
      `# Last rejected patch\n\nIt could not be applied; nothing of it was committed:\n\n${block(sanitizeText(input.lastRejection.message).trim())}\n\n` +
        `The rejected patch was:\n\n${block(patch, isDiff ? 'diff' : '')}`,
    );
  }
  const user = `${parts.join('\n\n')}\n`;
  const system = systemMessage(input.maxDiffLines, input.editFormat, input.strict, input.maxAsks);
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

/** Failing tests listed in the prompt at most (the rest are counted). */
const LISTED_FAILURES = 20;

/** The last test run: command, result, counts, failing tests and the output excerpts. */
export function renderTest(test: TestRecord | null): string {
  if (test === null) return '# Last test run\n\nThe tests have not run yet.';
  const out: string[] = [
    `# Last test run\n\nCommand: \`${sanitizeText(test.command).replace(/\n/g, ' ')}\`\nResult: ${test.exit_code === 0 && !test.timed_out ? 'passed' : 'failed'} (${testStatus(test)})`,
  ];
  if (test.scope === 'focused')
    out.push('Only the tests that failed before ran (failing tests first); the whole suite runs once they pass.');
  const listed = renderFailingTests(test);
  if (listed !== '') out.push(listed);
  // the excerpts were cut once, when the record was made: shown as they are
  for (const [name, text] of [
    ['stdout', test.stdout_tail],
    ['stderr', test.stderr_tail],
  ] as const) {
    const clean = sanitizeText(text);
    if (clean.trim() === '') continue;
    out.push(`${name}:\n\n${block(clean)}`);
  }
  return out.join('\n\n');
}

/** The counts the runner printed and the failing tests it named, one per line. */
function renderFailingTests(test: TestRecord): string {
  const parsed = test.parsed;
  if (parsed === undefined) return '';
  const lines: string[] = [];
  for (const c of parsed.counts) {
    const parts = [c.failed === null ? null : `${c.failed} failed`, c.passed === null ? null : `${c.passed} passed`];
    lines.push(`Counts (${c.runner}): ${parts.filter((p) => p !== null).join(', ')}`);
  }
  if (parsed.failing.length > 0) {
    lines.push(`Failing tests (${parsed.failing.length}):`);
    for (const f of parsed.failing.slice(0, LISTED_FAILURES)) {
      const where = f.file === null ? '' : ` (${f.file}${f.line === null ? '' : `:${f.line}`})`;
      const pkg = f.package === null ? '' : ` in ${f.package}`;
      lines.push(`- ${f.scope === 'test' ? '' : `${f.scope} `}${f.id}${pkg}${where}`.replace(/\n/g, ' '));
    }
    const more = parsed.failing.length - LISTED_FAILURES;
    if (more > 0) lines.push(`- … and ${more} more`);
  }
  return sanitizeText(lines.join('\n'));
}

/** The repository's file list, sorted, at most `max` paths. */
export function renderTree(tree: readonly string[], max: number): string {
  const sorted = [...tree].sort();
  const shown = sorted.slice(0, max).map((p) => sanitizeText(p).replace(/\n/g, ' '));
  const more = sorted.length - shown.length;
  const tail = more > 0 ? `\n... and ${more} more files` : '';
  return `# Files in the repository (${sorted.length})\n\n${block(`${shown.join('\n')}${tail}`)}`;
}

/** `content` in a fence longer than any it holds. */
export function block(content: string, info = ''): string {
  return `${fenceFor(content)}${info}\n${content.replace(/\n$/, '')}\n${fenceFor(content)}`;
}

/** `text` cut to `max` characters in its middle, saying how many were left out. */
export function capMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[... ${text.length - 2 * half} characters omitted ...]\n${text.slice(-half)}`;
}
