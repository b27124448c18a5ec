// One turn of the loop: read state, generate, extract, validate, apply, test, update state.
import { fileStates, type CutOff } from '../edits/index.js';
import type { ReadFilesResult } from '../git/index.js';
import type { ChatMessage, GenerateResult } from '../llm/index.js';
import { artifactNames } from '../state/artifact-names.js';
import type { AskRecord, Iteration, RunState, ShownItem } from '../state/run-state.js';
import { askedIn, askItems, askedShown, askMessages, replyTo } from './ask.js';
import { renderToolCallsArtifact } from '../state/tool-calls-artifact.js';
import { startIteration, updateIteration } from '../state/transitions.js';
import { ASK_TOOLS, type ContextEntry } from '../context/index.js';
import { contextRecord } from './context-record.js';
import { workbenchSource } from './context-source.js';
import { interpretAnswer, type Interpretation } from './interpret-answer.js';
import type { RunRecorder } from './phase-runner.js';
import type { Prepared } from './prepare.js';
import { renderPromptArtifact } from './prompt.js';
import type { RunDeps, RunRequest } from './run-types.js';
import { modelExplanation } from '../edits/explanation.js';
import { finish, judgeCandidate } from './candidate.js';
import { promptFor, sharedWithPrevious } from './iteration-prompt.js';

export { iterationDate } from './iteration-date.js';

/** The most bytes of a file read to place edits by its content. */
const EDIT_READ_BYTES = 2 * 1024 * 1024;
/** The most tree entries a request to see a file is answered from. */
const ASK_TREE_ENTRIES = 100_000;
/** How long the searches of one answer to the model's requests may take together. */
const ASK_SEARCH_MS = 15_000;

/** Run iteration n+1 to its outcome, recording every phase. */
export async function runIteration(
  rec: RunRecorder,
  deps: RunDeps,
  req: RunRequest,
  prep: Prepared,
  /** An answer already recorded for this iteration (resume): used instead of asking the model again. */
  recorded?: { text: string; model: string; finishReason?: string },
): Promise<Iteration> {
  const { config } = req;
  const signal = deps.signal;
  const sig = signal ? { signal } : {};
  const state = rec.change((s, now) => startIteration(s, now));
  const n = state.iterations.at(-1)!.n;
  const runId = state.run_id;
  // changes between phases stay in memory; each phase record writes the state file
  const set = async (change: Partial<Omit<Iteration, 'n'>>): Promise<RunState> =>
    rec.change((s, now) => updateIteration(s, n, change, now));

  // 1. read state: the prompt is rebuilt from the state file and the host's git, never remembered
  // the files the prompt shows, read at the head: phase 3 places edits in them without reading again
  const shown: ReadFilesResult[] = [];
  // its record is written while the prompt goes out (on disk before the answer's)
  const { prompt, context } = await rec.phase(
    'read_state',
    n,
    () => promptFor(rec.state, req, prep, deps.store, n, signal, shown),
    { write: 'behind' },
  );
  const promptArtifact = artifactNames.prompt(n);
  const promptText = renderPromptArtifact(prompt);
  // on disk before the state that names it (the answer's record), written while the model answers
  await rec.artifact(promptArtifact, promptText, { behind: true });
  const shared = await sharedWithPrevious(rec, deps.store, n, promptText);
  rec.lastPrompt = { n, text: promptText };
  await set({
    prompt: {
      chars: prompt.chars,
      artifact: promptArtifact,
      ...(shared === null ? {} : { shared_prefix_chars: shared }),
    },
    context: contextRecord(context),
  });

  // 2. generate: an answer that asks to see more is answered from the head and the model asked again
  // (up to loop.max_asks times; counted apart from iterations, replayed in order)
  const asks: AskRecord[] = [];
  const asked: ShownItem[] = [];
  const generate = (messages: ChatMessage[]): Promise<GenerateResult> =>
    deps.provider.generate({
      messages,
      // the requests are offered as tools while asks are left (a server that refuses them gets text only)
      ...(config.model.tools === 'auto' && asks.length < config.loop.max_asks ? { tools: ASK_TOOLS } : {}),
      ...sig,
      onProgress: (p) =>
        deps.emit({
          type: 'model_progress',
          run_id: runId,
          iteration: n,
          tokens: p.tokens,
          tps: p.tokensPerSecond,
          elapsed_ms: p.elapsedMs,
        }),
    });
  // while the model answers, the sandbox's tree goes back to its head (when tests ran there since)
  prep.repo.resetAhead(prep.sandboxHead);
  // the phase's record is written with the answer's, just below (a run stopped in between asks again)
  const answer: GenerateResult = await rec.phase(
    'generate',
    n,
    async () => {
      if (recorded)
        return {
          text: recorded.text,
          model: recorded.model,
          ...(recorded.finishReason === undefined ? {} : { finishReason: recorded.finishReason }),
          durationMs: 0,
          firstTokenMs: Number.NaN,
          attempts: 0,
        };
      let messages: ChatMessage[] = [...prompt.messages];
      let askTree: readonly ContextEntry[] | null = null;
      for (;;) {
        const a = await generate(messages);
        if (a.toolsRefused !== undefined) {
          deps.emit({
            type: 'notice',
            run_id: runId,
            at: deps.now().toISOString(),
            level: 'warning',
            text: `the model server refused tool calls (${a.toolsRefused}); the model asks in the text format for the rest of the run`,
          });
        }
        const { requests, toolCalls } =
          asks.length < config.loop.max_asks
            ? askedIn(a, { format: config.model.edit_format, strict: config.edits.strict })
            : { requests: [], toolCalls: null };
        if (requests.length === 0) return a;
        const k = asks.length + 1;
        askTree ??= (await prep.workbench.listTree(prep.workbench.head(), { maxEntries: ASK_TREE_ENTRIES, ...sig }))
          .entries;
        // the searches of one answer to the requests share a deadline
        const source = workbenchSource(prep.workbench, prep.workbench.head(), signal, Date.now() + ASK_SEARCH_MS);
        const { answers, reply } = await replyTo(requests, askTree, source, { k, max: config.loop.max_asks });
        const record: AskRecord = {
          answer_artifact: artifactNames.askAnswer(n, k),
          reply_artifact: artifactNames.askReply(n, k),
          ...(toolCalls === null ? {} : { tool_calls_artifact: artifactNames.askToolCalls(n, k) }),
          items: askItems(answers),
          chars: reply.length,
        };
        await deps.store.writeArtifact(runId, record.answer_artifact, a.text);
        await deps.store.writeArtifact(runId, record.reply_artifact, reply);
        if (record.tool_calls_artifact !== undefined && toolCalls !== null) {
          await deps.store.writeArtifact(runId, record.tool_calls_artifact, renderToolCallsArtifact(toolCalls));
        }
        asks.push(record);
        asked.push(...askedShown(answers));
        const context = rec.state.iterations.find((i) => i.n === n)?.context;
        await set({
          asks: [...asks],
          ...(context ? { context: { ...context, items: [...context.items, ...asked] } } : {}),
        });
        messages = [...messages, ...askMessages(a.text, toolCalls, answers, reply, { k, max: config.loop.max_asks })];
      }
    },
    { write: false },
  );
  // the sandbox's repository (made in the background since the baseline) is needed from here on
  await prep.ready();
  rec.change((s) => (s.sandbox ? { ...s, sandbox: { ...s.sandbox, base_tree_matches: prep.treesComparable } } : s));
  const answerArtifact = artifactNames.answer(n);
  // the raw answer, byte for byte: replay plays these back (on disk before the record below)
  await rec.artifact(answerArtifact, answer.text, { behind: true });
  // written at once, not with the next phase: a run stopped from here on resumes from this answer
  // instead of asking the model again
  const recordedAnswer = {
    model: answer.model,
    ...(answer.promptTokens === undefined ? {} : { prompt_tokens: answer.promptTokens }),
    ...(answer.completionTokens === undefined ? {} : { completion_tokens: answer.completionTokens }),
    duration_ms: Math.round(answer.durationMs),
    first_token_ms: Number.isFinite(answer.firstTokenMs) ? Math.round(answer.firstTokenMs) : null,
    artifact: answerArtifact,
    ...(answer.finishReason === undefined ? {} : { finish_reason: answer.finishReason.slice(0, 64) }),
  };
  await rec.update((s, now) => updateIteration(s, n, { answer: recordedAnswer }, now));

  // 3. extract: the answer's edits, vetted, and the apply ladder's candidates, built against the
  // content at the workbench head (the tree the sandbox has too)
  const head = prep.workbench.head();
  const readEdits = async (paths: string[]) => {
    // whole files the prompt already read at this head are reused; the rest is read now
    const known: ReadFilesResult = { files: [], skipped: [] };
    for (const r of shown) {
      known.files.push(...r.files.filter((f) => !f.truncated && paths.includes(f.path)));
      known.skipped.push(...r.skipped.filter((f) => paths.includes(f.path)));
    }
    const have = new Set([...known.files.map((f) => f.path), ...known.skipped.map((f) => f.path)]);
    const rest = paths.filter((p) => !have.has(p));
    const read =
      rest.length === 0
        ? { files: [], skipped: [] }
        : await prep.workbench.readFiles(head, rest, { maxBytesPerFile: EDIT_READ_BYTES, ...sig });
    return fileStates(
      { files: [...known.files, ...read.files], skipped: [...known.skipped, ...read.skipped] },
      EDIT_READ_BYTES,
    );
  };
  // written while the host checks the patch, and on disk before the sandbox step runs the tests: the
  // state shows the iteration going into it
  const interp: Interpretation = await rec.phase(
    'extract',
    n,
    () =>
      interpretAnswer(
        answer.text,
        {
          maxDiffLines: config.loop.max_diff_lines,
          format: config.model.edit_format,
          strict: config.edits.strict,
          ...(answer.finishReason === undefined ? {} : { finishReason: answer.finishReason }),
        },
        readEdits,
      ),
    { write: 'behind' },
  );
  if (interp.kind !== 'diff') {
    const noChanges = interp.kind === 'no_changes';
    const cutOff = interp.kind === 'unusable' ? interp.cutOff : undefined;
    await set({
      extraction: noChanges
        ? { kind: 'no_changes' }
        : { kind: 'unusable', reason: interp.reason, ...(cutOff ? { cut_off: cutOff } : {}) },
      outcome: noChanges ? 'no_changes' : 'unusable',
      summary: noChanges
        ? 'the model answered NO_CHANGES'
        : cutOff
          ? cutOffSummary(cutOff, config.model.num_predict)
          : `no usable diff: ${interp.reason}`,
    });
    return finish(rec, n);
  }
  return judgeCandidate(rec, deps, req, prep, n, interp, modelExplanation(answer.text));
}

/** The iteration's summary line for a cut-off answer: what happened, and the setting that decides the limit. */
function cutOffSummary(cut: CutOff, numPredict: number): string {
  const what = cut.by === 'server' ? 'cut off at the token limit' : 'cut off mid-edit';
  return `${what}, nothing applied: raise [model] num_predict (now ${numPredict})`;
}
