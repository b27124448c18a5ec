// One turn of the loop: read state, generate, extract, validate, apply, test, update state.
import { commitMessage } from '../git/index.js';
import type { GenerateResult } from '../llm/index.js';
import { artifactNames } from '../state/artifact-names.js';
import type { Iteration, RunState } from '../state/run-state.js';
import { startIteration, updateIteration } from '../state/transitions.js';
import { selectContextFiles } from './context.js';
import { interpretAnswer, type Interpretation } from './interpret-answer.js';
import { summarizePatch } from './patch-summary.js';
import { toPatchFiles } from './validate-diff.js';
import type { RunRecorder } from './phase-runner.js';
import type { Prepared } from './prepare.js';
import { assertSameTree, runTests } from './prepare.js';
import { buildPrompt, renderPromptArtifact, type BuiltPrompt, type PromptFile } from './prompt.js';
import type { RunDeps, RunRequest } from './run-types.js';
import { changedFiles, lastRejectedIteration, stabilitySignal } from './signal.js';
import { latestTest, seenPatchHash, testPassed } from './stop-conditions.js';

/** Run iteration n+1 to its outcome, recording every phase. */
export async function runIteration(rec: RunRecorder, deps: RunDeps, req: RunRequest, prep: Prepared): Promise<Iteration> {
  const { config } = req;
  const signal = deps.signal;
  const sig = signal ? { signal } : {};
  const state = await rec.update((s, now) => startIteration(s, now));
  const n = state.iterations.at(-1)!.n;
  const runId = state.run_id;
  const set = (change: Partial<Omit<Iteration, 'n'>>): Promise<RunState> => rec.update((s, now) => updateIteration(s, n, change, now));

  // 1. read state: the prompt is rebuilt from the state file and the host's git, never remembered
  const prompt = await rec.phase('read_state', n, () => promptFor(rec.state, req, prep, deps.store, n, signal));
  const promptArtifact = artifactNames.prompt(n);
  await deps.store.writeArtifact(runId, promptArtifact, renderPromptArtifact(prompt));
  await set({ prompt: { chars: prompt.chars, artifact: promptArtifact } });

  // 2. generate
  const answer: GenerateResult = await rec.phase('generate', n, () =>
    deps.provider.generate({
      messages: prompt.messages,
      ...sig,
      onProgress: (p) => deps.emit({ type: 'model_progress', run_id: runId, iteration: n, tokens: p.tokens, tps: p.tokensPerSecond, elapsed_ms: p.elapsedMs }),
    }),
  );
  const answerArtifact = artifactNames.answer(n);
  // the raw answer, byte for byte: replay plays these back
  await deps.store.writeArtifact(runId, answerArtifact, answer.text);
  await set({
    answer: {
      model: answer.model,
      ...(answer.promptTokens === undefined ? {} : { prompt_tokens: answer.promptTokens }),
      ...(answer.completionTokens === undefined ? {} : { completion_tokens: answer.completionTokens }),
      duration_ms: Math.round(answer.durationMs),
      first_token_ms: Number.isFinite(answer.firstTokenMs) ? Math.round(answer.firstTokenMs) : null,
      artifact: answerArtifact,
    },
  });

  // 3. extract
  const interp: Interpretation = await rec.phase('extract', n, async () => interpretAnswer(answer.text, { maxDiffLines: config.loop.max_diff_lines }));
  if (interp.kind !== 'diff') {
    const noChanges = interp.kind === 'no_changes';
    await set({
      extraction: noChanges ? { kind: 'no_changes' } : { kind: 'unusable', reason: interp.reason },
      outcome: noChanges ? 'no_changes' : 'unusable',
      summary: noChanges ? 'the model answered NO_CHANGES' : `no usable diff: ${interp.reason}`,
    });
    return finish(rec, n);
  }
  const patchArtifact = artifactNames.patch(n);
  await deps.store.writeArtifact(runId, patchArtifact, interp.patch);
  const files = toPatchFiles(interp.files);
  const summary = summarizePatch(files);
  await set({
    extraction: { kind: 'diff', lines: interp.lines, files: files.length, ...(interp.fixes.length ? { fixes: interp.fixes } : {}) },
    patch: { hash: interp.hash, artifact: patchArtifact, files, lines: interp.lines, added: interp.added, removed: interp.removed },
  });
  if (seenPatchHash(rec.state, interp.hash, n)) {
    await set({ outcome: 'duplicate', summary: `repeated an earlier patch (${interp.hash.slice(0, 12)})` });
    return finish(rec, n);
  }

  // 4. validate: git apply --check in the sandbox, then the host builds the same commit in its workbench
  const check = await rec.phase('validate', n, async () => {
    await prep.repo.reset(signal);
    const inSandbox = await prep.repo.applyCheck(`iter-${String(n).padStart(2, '0')}.patch`, interp.patch, signal);
    if (!inSandbox.ok) return inSandbox;
    const onHost = await prep.workbench.applyPatch(interp.patch, { iteration: n, summary, ...sig });
    return onHost.ok ? { ok: true as const, host: onHost } : { ok: false as const, message: onHost.message };
  });
  if (!check.ok) {
    await set({ validation: { ok: false, message: check.message }, outcome: 'rejected', summary: `patch rejected: ${firstLine(check.message)}` });
    return finish(rec, n);
  }
  await set({ validation: { ok: true } });

  // 5. apply: the same patch and commit message inside the sandbox; the trees must agree
  const applied = await rec.phase('apply', n, async () => {
    const inSandbox = await prep.repo.applyAndCommit(`iter-${String(n).padStart(2, '0')}.patch`, commitMessage(n, summary), signal);
    if (prep.treesComparable) assertSameTree(check.host.tree, inSandbox.tree, n);
    return check.host;
  });
  await set({ apply: { commit: applied.commit, tree: applied.tree } });

  // 6. test
  const test = await rec.phase('test', n, () => runTests(rec, deps, prep.repo, req, n));

  // 7. update state
  await rec.phase('update_state', n, () =>
    set({ test, outcome: 'applied', summary: `${summary}; tests ${testPassed(test) ? 'pass' : test.timed_out ? 'timed out' : `fail (exit ${test.exit_code})`}` }),
  );
  return rec.state.iterations.at(-1)!;
}

async function finish(rec: RunRecorder, n: number): Promise<Iteration> {
  await rec.phase('update_state', n, async () => undefined);
  return rec.state.iterations.at(-1)!;
}

async function promptFor(state: RunState, req: RunRequest, prep: Prepared, store: RunDeps['store'], n: number, signal?: AbortSignal): Promise<BuiltPrompt> {
  const { config } = req;
  const sig = signal ? { signal } : {};
  const wb = prep.workbench;
  const head = wb.head();
  const [tree, diffSoFar] = await Promise.all([wb.listTree(head, { maxEntries: 100_000, ...sig }), wb.diff(wb.baseCommit, head, sig)]);
  const last = latestTest(state);
  const failingOutput = last && !testPassed(last) ? `${last.stdout_tail}\n${last.stderr_tail}` : '';
  const picks = selectContextFiles({
    directive: req.directiveText,
    testOutput: failingOutput,
    changedFiles: changedFiles(state),
    tree: tree.entries,
    budget: { chars: config.prompt.budget_chars, fileMaxBytes: config.prompt.file_max_bytes },
  });
  const read = await wb.readFiles(
    head,
    picks.map((p) => p.path),
    { maxBytesPerFile: config.prompt.file_max_bytes, ...sig },
  );
  const byPath = new Map(read.files.map((f) => [f.path, f]));
  const files: PromptFile[] = picks.flatMap((p) => {
    const f = byPath.get(p.path);
    if (!f) return [];
    const content = f.content.length > p.readBytes ? f.content.slice(0, p.readBytes) : f.content;
    return [{ path: p.path, content, reason: p.reason, truncated: p.truncated || f.truncated }];
  });
  const rejected = lastRejectedIteration(state);
  let lastRejection: { patch: string; message: string } | null = null;
  if (rejected?.patch && rejected.validation?.message) {
    lastRejection = { patch: await store.readArtifact(state.run_id, rejected.patch.artifact), message: rejected.validation.message };
  }
  return buildPrompt({
    directive: req.directiveText,
    iteration: n,
    maxIterations: config.loop.max_iterations,
    signal: stabilitySignal(state),
    diffSoFar,
    lastTest: last,
    lastRejection,
    tree: tree.entries.map((e) => e.path),
    files,
    limits: config.prompt,
    maxDiffLines: config.loop.max_diff_lines,
  });
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? text).trim().slice(0, 200);
}
