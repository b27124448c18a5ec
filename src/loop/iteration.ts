// One turn of the loop: read state, generate, extract, validate, apply, test, update state.
import { fileStates, rejectionText, rungLabel, type CutOff, type Rung } from '../edits/index.js';
import { commitMessage, type ApplyResult, type ReadFilesResult } from '../git/index.js';
import type { ChatMessage, GenerateResult } from '../llm/index.js';
import { artifactNames } from '../state/artifact-names.js';
import type { ExecResult } from '../sandbox/types.js';
import type { AskRecord, Iteration, RunState, ShownItem, TestRecord } from '../state/run-state.js';
import { askedIn, askItems, askedShown, askMessages, replyTo } from './ask.js';
import { renderToolCallsArtifact } from '../state/tool-calls-artifact.js';
import { startIteration, updateIteration } from '../state/transitions.js';
import {
  ASK_TOOLS,
  buildContext,
  changedRanges,
  sharedPrefixLength,
  type ContextEntry,
  type ContextResult,
} from '../context/index.js';
import { contextRecord } from './context-record.js';
import { workbenchSource } from './context-source.js';
import { interpretAnswer, type Interpretation } from './interpret-answer.js';
import { summarizePatch } from '../patch/patch-summary.js';
import { toPatchFiles } from '../patch/validate-diff.js';
import type { RunRecorder } from './phase-runner.js';
import type { Prepared } from './prepare.js';
import { assertSameTree, PROMPT_TREE_ENTRIES } from './prepare.js';
import { MAX_STEP_CANDIDATES } from './sandbox-repo.js';
import { renderTestLog } from '../report/test-log.js';
import { toTestRecord } from './test-record.js';
import { focusedRunStands, focusFor, withFocus } from './focus-tests.js';
import { judgeExtracted } from '../patch/path-policy.js';
import { gateCandidates } from './syntax-gate-run.js';
import { buildPrompt, renderPromptArtifact, type BuiltPrompt } from './prompt.js';
import type { RunDeps, RunRequest } from './run-types.js';
import { lastRejectedIteration, stabilitySignal } from './signal.js';
import { latestTest, seenPatchHash, testPassed } from './stop-conditions.js';

/** The most bytes of a file read to place edits by its content. */
const EDIT_READ_BYTES = 2 * 1024 * 1024;
/** The most tree entries a request to see a file is answered from. */
const ASK_TREE_ENTRIES = 100_000;

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
        const source = workbenchSource(prep.workbench, prep.workbench.head(), signal);
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
  const patchArtifact = artifactNames.patch(n);
  // on disk before the state that names it: the step waits for it, and so does every later state write
  await rec.artifact(patchArtifact, interp.patch, { behind: true });
  const files = toPatchFiles(interp.files);
  const summary = summarizePatch(files);
  // [policy]: edits to sensitive paths (CI configuration, .gitattributes, .gitmodules, package
  // scripts) are refused, the model told why, unless allowed; when allowed they are flagged for review
  const policy = await judgeExtracted({ files, patch: interp.patch }, config.policy, (paths) =>
    readCurrent(prep, paths, signal),
  );
  if (policy.kind === 'refused') {
    await set({
      extraction: { kind: 'unusable', reason: policy.reason },
      outcome: 'unusable',
      summary: `no usable diff: ${policy.reason}`,
    });
    return finish(rec, n);
  }
  if (policy.kind === 'flagged') await set({ review: policy.review });
  const patchRecord = {
    hash: interp.hash,
    artifact: patchArtifact,
    files,
    lines: interp.lines,
    added: interp.added,
    removed: interp.removed,
  };
  await set({
    extraction: {
      kind: 'diff',
      lines: interp.lines,
      files: files.length,
      ...(interp.fixes.length ? { fixes: interp.fixes } : {}),
    },
    patch: patchRecord,
  });
  if (seenPatchHash(rec.state, interp.hash, n)) {
    await set({ outcome: 'duplicate', summary: `repeated an earlier patch (${interp.hash.slice(0, 12)})` });
    return finish(rec, n);
  }
  // the syntax gate ([edits] syntax_gate): candidates that add a syntax error are left out
  const t0 = deps.now();
  const gate =
    interp.candidates.length === 0
      ? null
      : await gateCandidates(interp.candidates, prep.workbench, { enabled: config.edits.syntax_gate, ...sig });
  const gateMs = deps.now().getTime() - t0.getTime();
  if (gate !== null) await set({ syntax_gate: gate.record });
  const failures = gate?.failure ? [...interp.failures, gate.failure] : interp.failures;
  if (gate === null || gate.kept.length === 0) {
    // nothing the host built can apply (a SEARCH not found, hunks not placed, every candidate
    // adds a syntax error): no exec needed
    const message = rejectionText(failures, null);
    rec.change((s, now) =>
      updateIteration(
        s,
        n,
        { validation: { ok: false, message }, outcome: 'rejected', summary: `patch rejected: ${firstLine(message)}` },
        now,
      ),
    );
    await rec.recordPhase('validate', n, t0, gateMs, 'failed');
    return finish(rec, n);
  }

  // 4-6. validate, apply, test: one exec in the sandbox tries the ladder's candidates in order
  // (check, apply and commit the first that passes, tests). The host applies the first candidate
  // in its workbench at once, alongside; if the sandbox says another one passed, the host drops
  // that commit and applies the one the sandbox took, while the tests run
  const candidates = gate.kept.slice(0, MAX_STEP_CANDIDATES);
  const before = { commit: prep.workbench.head(), tree: prep.workbench.tree() };
  const applyOnHost = (k: number): Promise<ApplyResult> => {
    const c = candidates[k]!;
    // dated by the iteration's start, so resume replays it into the very same commit
    const run = prep.workbench.applyPatch(c.patch, {
      iteration: n,
      summary,
      flags: c.flags,
      date: iterationDate(rec.state, n),
      ...sig,
    });
    run.catch(() => undefined); // awaited below; never an unhandled rejection if the step throws first
    return run;
  };
  const first = applyOnHost(0);
  let other: Promise<ApplyResult> | undefined;
  const applyInstead = (k: number): Promise<ApplyResult> => {
    other ??= first.then(
      (r) => {
        if (r.ok) prep.workbench.resetHead(before.commit, before.tree);
        return applyOnHost(k);
      },
      () => applyOnHost(k),
    );
    other.catch(() => undefined);
    return other;
  };
  // the next prompt's listing and diff are made while the sandbox commits and tests (kept by the
  // workbench, by commit): the head they are of is known once the sandbox took a candidate
  const warmNext = (r: ApplyResult): void => {
    if (!r.ok) return;
    prep.workbench.listTree(r.commit, { maxEntries: PROMPT_TREE_ENTRIES }).catch(() => undefined);
    prep.workbench.diff(prep.workbench.baseCommit, r.commit).catch(() => undefined);
  };
  // failing tests first: the tests the last run named, when its runner can be filtered
  const focus = focusFor(rec.state, req.testCommand, config.tools.focus);
  const onTestOutput = (stream: 'stdout' | 'stderr', chunk: Buffer): void =>
    deps.emit({ type: 'test_output', run_id: runId, iteration: n, stream, chunk: chunk.toString('utf8') });
  await rec.flush();
  const inSandbox = await prep.repo.step(
    prep.sandboxHead,
    `iter-${String(n).padStart(2, '0')}.patch`,
    candidates,
    commitMessage(n, summary),
    { command: focus?.command ?? req.testCommand, timeoutMs: config.tools.test_timeout * 1000, onOutput: onTestOutput },
    { ...sig, onChecked: (k) => void (k === 0 ? first : applyInstead(k)).then(warmNext, () => undefined) },
  );
  const onHost: ApplyResult | null =
    inSandbox.kind === 'applied' ? await (inSandbox.candidate === 0 ? first : applyInstead(inSandbox.candidate)) : null;
  if (inSandbox.kind === 'rejected' || onHost === null || !onHost.ok) {
    // whichever side took a patch drops it: the workbench here, the sandbox at its next reset
    if (inSandbox.kind === 'rejected' && (await first).ok) prep.workbench.resetHead(before.commit, before.tree);
    const message =
      inSandbox.kind === 'rejected'
        ? rejectionText(failures, inSandbox.messages.find((m) => m !== '') ?? inSandbox.message)
        : `the host's git refused the patch the sandbox applied: ${onHost && !onHost.ok ? onHost.message : 'no result'}`;
    rec.change((s, now) =>
      updateIteration(
        s,
        n,
        { validation: { ok: false, message }, outcome: 'rejected', summary: `patch rejected: ${firstLine(message)}` },
        now,
      ),
    );
    await rec.recordPhase('validate', n, t0, gateMs + inSandbox.validateMs, 'failed');
    return finish(rec, n);
  }
  const chosen = candidates[inSandbox.candidate]!;
  let appliedArtifact: string | undefined;
  if (chosen.patch !== interp.patch) {
    appliedArtifact = `iter-${String(n).padStart(2, '0')}.applied.patch`;
    await deps.store.writeArtifact(runId, appliedArtifact, chosen.patch);
  }
  rec.change((s, now) =>
    updateIteration(
      s,
      n,
      {
        patch: { ...patchRecord, rung: chosen.rung, ...(appliedArtifact ? { applied_artifact: appliedArtifact } : {}) },
      },
      now,
    ),
  );
  if (prep.treesComparable) assertSameTree(onHost.tree, inSandbox.tree, n);
  prep.sandboxHead = inSandbox.commit;
  const testName = artifactNames.testLog(n);
  const recordOf = (result: ExecResult, command: string): TestRecord =>
    toTestRecord(result, {
      command,
      artifact: testName,
      headLines: config.prompt.output_head_lines,
      tailLines: config.prompt.output_tail_lines,
      failureLines: config.prompt.output_failure_lines,
      maxFailures: config.prompt.output_max_failures,
    });
  let test = recordOf(inSandbox.test, focus?.command ?? req.testCommand);
  let testLog = renderTestLog(test.command, inSandbox.test);
  let testMs = inSandbox.test.durationMs;
  if (focus) {
    if (focusedRunStands(test)) test = { ...test, scope: 'focused' };
    else {
      // the focused tests pass (or named nothing): the whole suite decides
      const full = await prep.repo.test(req.testCommand, config.tools.test_timeout * 1000, onTestOutput, signal);
      test = withFocus(recordOf(full, req.testCommand), test);
      testLog = `${testLog}\n${renderTestLog(req.testCommand, full)}`;
      testMs += full.durationMs;
    }
  }
  await rec.artifact(testName, testLog, { behind: true });
  // validate, apply and test all ended when the one exec returned: record them and write once,
  // while update_state goes on (a run killed before the write lands resumes from the answer, the
  // same as one killed as the step's results came back)
  rec.change((s, now) =>
    updateIteration(s, n, { validation: { ok: true }, apply: { commit: onHost.commit, tree: onHost.tree }, test }, now),
  );
  await rec.recordPhases(
    n,
    [
      { phase: 'validate', startedAt: t0, durationMs: gateMs + inSandbox.validateMs },
      {
        phase: 'apply',
        startedAt: new Date(t0.getTime() + gateMs + inSandbox.validateMs),
        durationMs: inSandbox.applyMs,
      },
      {
        phase: 'test',
        startedAt: new Date(t0.getTime() + gateMs + inSandbox.validateMs + inSandbox.applyMs),
        durationMs: testMs,
      },
    ],
    { behind: true },
  );

  // 7. update state: written while the next iteration starts (the next write waits for it); a run
  // killed before it lands resumes as one killed as update_state began
  await rec.phase(
    'update_state',
    n,
    async () =>
      rec.change((s, now) =>
        updateIteration(
          s,
          n,
          {
            outcome: 'applied',
            summary: `${summary}${rungNote(chosen.rung)}; ${test.scope === 'focused' ? 'the failing tests, run first,' : 'tests'} ${testPassed(test) ? 'pass' : test.timed_out ? 'timed out' : `fail (exit ${test.exit_code})`}`,
          },
          now,
        ),
      ),
    { write: 'behind' },
  );
  return rec.state.iterations.at(-1)!;
}

/** The iteration's summary line for a cut-off answer: what happened, and the setting that decides the limit. */
function cutOffSummary(cut: CutOff, numPredict: number): string {
  const what = cut.by === 'server' ? 'cut off at the token limit' : 'cut off mid-edit';
  return `${what}, nothing applied: raise [model] num_predict (now ${numPredict})`;
}

async function finish(rec: RunRecorder, n: number): Promise<Iteration> {
  await rec.phase('update_state', n, async () => undefined, { write: 'behind' });
  return rec.state.iterations.at(-1)!;
}

async function promptFor(
  state: RunState,
  req: RunRequest,
  prep: Prepared,
  store: RunDeps['store'],
  n: number,
  signal?: AbortSignal,
  shown?: ReadFilesResult[],
): Promise<{ prompt: BuiltPrompt; context: ContextResult }> {
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
        chars: config.prompt.budget_chars,
        fileMaxBytes: config.prompt.file_max_bytes,
        mapChars: config.prompt.map_chars,
      },
    },
    workbenchSource(wb, head, signal),
    prep.parseCache,
  );
  // files read whole at this head are reused to place the answer's edits
  shown?.push({
    files: context.read
      .filter((t) => !t.truncated)
      .map((t) => ({ path: t.path, content: t.text, bytes: Buffer.byteLength(t.text), truncated: false })),
    skipped: [],
  });
  const rejected = lastRejectedIteration(state);
  let lastRejection: { patch: string; message: string } | null = null;
  if (rejected?.patch && rejected.validation?.message) {
    lastRejection = {
      patch: await store.readArtifact(state.run_id, rejected.patch.artifact),
      message: rejected.validation.message,
    };
  }
  const prompt = buildPrompt({
    directive: req.directiveText,
    iteration: n,
    maxIterations: config.loop.max_iterations,
    signal: stabilitySignal(state),
    diffSoFar,
    lastTest: last,
    lastRejection,
    tree: tree.entries.map((e) => e.path),
    context,
    limits: config.prompt,
    maxDiffLines: config.loop.max_diff_lines,
    editFormat: config.model.edit_format,
    strict: config.edits.strict,
    maxAsks: config.loop.max_asks,
  });
  return { prompt, context };
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
async function sharedWithPrevious(
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

/** " (applied: hunks relocated by their context)" for any rung but the first. */
function rungNote(rung: Rung): string {
  return rung === 'as_is' ? '' : ` (applied: ${rungLabel(rung)})`;
}

/** The current text of repo paths at the workbench head (the sandbox's tree too), for the path policy. */
async function readCurrent(prep: Prepared, paths: string[], signal?: AbortSignal): Promise<Map<string, string>> {
  const read = await prep.workbench.readFiles(prep.workbench.head(), paths, {
    maxBytesPerFile: 1024 * 1024,
    ...(signal ? { signal } : {}),
  });
  // a file cut short is passed on as is: it does not parse, so the policy treats it as changed
  return new Map(read.files.map((f) => [f.path, f.content]));
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? text).trim().slice(0, 200);
}

/** The date an iteration's commit carries: when the iteration started (resume reproduces the commit). */
export function iterationDate(state: RunState, n: number): Date {
  const started = state.iterations.find((it) => it.n === n)?.started_at;
  return started === undefined ? new Date() : new Date(started);
}
