// Step 1's work: the prompt of an iteration, rebuilt from the state file and the host's git.
import type { ReadFilesResult } from '../git/index.js';
import type { RunState, TestRecord } from '../state/run-state.js';
import { buildContext, changedRanges, sharedPrefixLength, type ContextResult } from '../context/index.js';
import { workbenchSource } from './context-source.js';
import type { RunRecorder } from './phase-runner.js';
import type { Prepared } from './prepare.js';
import { PROMPT_TREE_ENTRIES } from './prepare.js';
import { buildAgentPrompt, type AgentPromptOptions } from './agent/prompt.js';
import { buildPrompt, type BuiltPrompt, type PromptInput } from './prompt.js';
import type { RunDeps, RunRequest } from './run-types.js';
import { lastRejectedIteration, stabilitySignal } from './signal.js';
import { latestTest, testPassed } from './stop-conditions.js';

/** The prompt of iteration n and what it shows; the files read whole at the head go to `shown`. */
export async function promptFor(
  state: RunState,
  req: RunRequest,
  prep: Prepared,
  store: RunDeps['store'],
  n: number,
  signal?: AbortSignal,
  shown?: ReadFilesResult[],
): Promise<{ prompt: BuiltPrompt; context: ContextResult }> {
  const { config } = req;
  const { input, context } = await promptInputs(state, req, prep, store, n, config.prompt.budget_chars, signal);
  // files read whole at this head are reused to place the answer's edits
  shown?.push({
    files: context.read
      .filter((t) => !t.truncated)
      .map((t) => ({ path: t.path, content: t.text, bytes: Buffer.byteLength(t.text), truncated: false })),
    skipped: [],
  });
  const prompt = buildPrompt({
    ...input,
    maxDiffLines: config.loop.max_diff_lines,
    editFormat: config.model.edit_format,
    strict: config.edits.strict,
    maxAsks: config.loop.max_asks,
  });
  return { prompt, context };
}

/** Agent mode's prompt of iteration n: the directive, an orientation (the tree and the map, no files) and where the loop stands. */
export async function agentPromptFor(
  state: RunState,
  req: RunRequest,
  prep: Prepared,
  store: RunDeps['store'],
  n: number,
  opts: AgentPromptOptions,
  signal?: AbortSignal,
): Promise<{ prompt: BuiltPrompt; context: ContextResult }> {
  // no files are shown (the model reads them itself): the map is the orientation
  const { input, context } = await promptInputs(state, req, prep, store, n, 0, signal);
  return { prompt: buildAgentPrompt(input, opts), context };
}

/** What both modes' prompts are built from: the head's tree, the diff so far, the context, the last test and rejection. */
async function promptInputs(
  state: RunState,
  req: RunRequest,
  prep: Prepared,
  store: RunDeps['store'],
  n: number,
  budgetChars: number,
  signal?: AbortSignal,
): Promise<{
  input: Omit<PromptInput, 'maxDiffLines' | 'editFormat' | 'strict' | 'maxAsks'>;
  context: ContextResult;
}> {
  const { config } = req;
  const sig = signal ? { signal } : {};
  const wb = prep.workbench;
  const head = wb.head();
  const last = latestTest(state);
  const [tree, diffSoFar, failureOutput] = await Promise.all([
    wb.listTree(head, { maxEntries: PROMPT_TREE_ENTRIES, ...sig }),
    wb.diff(wb.baseCommit, head, sig),
    last && !testPassed(last) ? failingOutput(state, last, store) : Promise.resolve(''),
  ]);
  const context = await buildContext(
    {
      tree: tree.entries,
      directive: req.directiveText,
      failureOutput,
      changed: changedRanges(diffSoFar),
      budget: {
        chars: budgetChars,
        fileMaxBytes: config.prompt.file_max_bytes,
        mapChars: config.prompt.map_chars,
      },
    },
    workbenchSource(wb, head, signal),
    prep.parseCache,
  );
  const rejected = lastRejectedIteration(state);
  let lastRejection: { patch: string; message: string } | null = null;
  if (rejected?.patch && rejected.validation?.message) {
    lastRejection = {
      patch: await store.readArtifact(state.run_id, rejected.patch.artifact),
      message: rejected.validation.message,
    };
  }
  return {
    input: {
      directive: req.directiveText,
      iteration: n,
      maxIterations: config.loop.max_iterations,
      signal: stabilitySignal(state, req.config.tests.known_failures),
      diffSoFar,
      lastTest: last,
      lastRejection,
      tree: tree.entries.map((e) => e.path),
      context,
      limits: config.prompt,
    },
    context,
  };
}

/** The failing run's whole output (its log artifact), or the excerpts the state keeps when there is none. */
async function failingOutput(state: RunState, test: TestRecord, store: RunDeps['store']): Promise<string> {
  const excerpt = `${test.stdout_tail}\n${test.stderr_tail}`;
  if (test.artifact === null) return excerpt;
  return store.readArtifact(state.run_id, test.artifact).catch(() => excerpt);
}

/**
 * Characters the prompt shares from its start with the previous iteration's prompt (null for the
 * first): the one this process built, else (a resumed run) its artifact.
 */
export async function sharedWithPrevious(
  rec: RunRecorder,
  store: RunDeps['store'],
  n: number,
  text: string,
): Promise<number | null> {
  const previous = rec.state.iterations.find((it) => it.n === n - 1)?.prompt;
  if (!previous) return null;
  if (rec.lastPrompt?.n === n - 1) return sharedPrefixLength(rec.lastPrompt.text, text);
  const before = await store.readArtifact(rec.state.run_id, previous.artifact).catch(() => null);
  return before === null ? null : sharedPrefixLength(before, text);
}
