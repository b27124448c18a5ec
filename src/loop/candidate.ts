// Steps 3 (from the vetted candidate) to 7 of an iteration, shared by both modes: whatever produced
// the candidate (an answer's extracted edits, or a trajectory's submitted change), it is recorded,
// judged by the path policy, checked against earlier patches and the syntax gate, then applied,
// committed and tested in the sandbox with the host's workbench alongside.
import { rejectionText, rungLabel, type Rung } from '../edits/index.js';
import { cutAtWord, SUBJECT_MAX, type ApplyResult } from '../git/index.js';
import { iterationCommit, iterationCommitMessage } from './commit-text.js';
import { artifactNames } from '../state/artifact-names.js';
import type { ExecResult } from '../sandbox/types.js';
import type { Iteration, RunState, TestRecord } from '../state/run-state.js';
import { updateIteration } from '../state/transitions.js';
import type { Interpretation } from './interpret-answer.js';
import { summarizePatch } from '../patch/patch-summary.js';
import { toPatchFiles } from '../patch/validate-diff.js';
import type { RunRecorder } from './phase-runner.js';
import type { Prepared } from './prepare.js';
import { assertSameCommit, assertSameTree, PROMPT_TREE_ENTRIES } from './prepare.js';
import { sandboxCommitId } from '../runner/index.js';
import { MAX_STEP_CANDIDATES } from './sandbox-repo.js';
import { renderTestLog } from '../test-output/test-log.js';
import { toTestRecord } from './test-record.js';
import { testTimeoutMs } from './test-timeout.js';
import { baseRerunPlan, rerunAtBase } from './base-rerun.js';
import { focusedRunStands, focusFor, withFocus } from './focus-tests.js';
import { patchSizeRefusal } from '../patch/path-policy.js';
import { judgeCandidates } from './effect-run.js';
import { gateCandidates } from './syntax-gate-run.js';
import type { RunDeps, RunRequest } from './run-types.js';
import { seenPatchHash, testPassed } from './stop-conditions.js';
import { iterationDate } from './iteration-date.js';

/** A vetted candidate with its apply ladder: an answer's extracted edits, or a trajectory's submitted change. */
export type CandidatePatch = Extract<Interpretation, { kind: 'diff' }>;

/** Record, judge, apply and test iteration n's candidate, through to the iteration's outcome. */
export async function judgeCandidate(
  rec: RunRecorder,
  deps: RunDeps,
  req: RunRequest,
  prep: Prepared,
  n: number,
  interp: CandidatePatch,
  /** The model's words about the change (null: none), for the commit's body. */
  explanation: string | null,
): Promise<Iteration> {
  const { config } = req;
  const signal = deps.signal;
  const sig = signal ? { signal } : {};
  const runId = rec.state.run_id;
  const set = async (change: Partial<Omit<Iteration, 'n'>>): Promise<RunState> =>
    rec.change((s, now) => updateIteration(s, n, change, now));
  const patchArtifact = artifactNames.patch(n);
  // on disk before the state that names it: the step waits for it, and so does every later state write
  await rec.artifact(patchArtifact, interp.patch, { behind: true });
  // what the patch claims to touch, until its effect on the tree is known (below)
  const claimedFiles = toPatchFiles(interp.files);
  // [policy] max_patch_bytes: the diff so far goes into every later prompt
  const tooLarge = patchSizeRefusal(interp.patch, config.policy);
  if (tooLarge !== null) {
    await set({
      extraction: { kind: 'unusable', reason: tooLarge },
      outcome: 'unusable',
      summary: `no usable diff: ${tooLarge}`,
    });
    return finish(rec, n);
  }
  const patchRecord = {
    hash: interp.hash,
    artifact: patchArtifact,
    files: claimedFiles,
    lines: interp.lines,
    added: interp.added,
    removed: interp.removed,
  };
  await set({
    extraction: {
      kind: 'diff',
      lines: interp.lines,
      files: claimedFiles.length,
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

  // [policy], by what the candidate does to the tree, never by what its headers say: links,
  // submodules and sensitive paths (CI configuration, hook managers, install triggers, git's own
  // files, what a package.json runs) are refused and the model told why, unless allowed; when
  // allowed they are flagged for review. The files the state, the summary and the commit name are
  // the ones the tree says it changes.
  const judged = await judgeCandidates(gate.kept.slice(0, MAX_STEP_CANDIDATES), prep.workbench, config.policy, sig);
  if (judged.kind === 'refused') {
    await set({
      extraction: { kind: 'unusable', reason: judged.reason },
      patch: null,
      outcome: 'unusable',
      summary: `no usable diff: ${judged.reason}`,
    });
    return finish(rec, n);
  }
  // the host's checks (the gate and the policy) count as the validate phase's time
  const checkedMs = deps.now().getTime() - t0.getTime();
  const files = judged.files ?? claimedFiles;
  const summary = summarizePatch(files);
  if (judged.review !== null) await set({ review: judged.review });
  if (judged.files !== null) await set({ patch: { ...patchRecord, files } });

  // 4-6. validate, apply, test: one exec in the sandbox tries the ladder's candidates in order
  // (check, apply and commit the first that passes, tests). The host applies the first candidate
  // in its workbench at once, alongside; if the sandbox says another one passed, the host drops
  // that commit and applies the one the sandbox took, while the tests run
  const candidates = judged.kept;
  const before = { commit: prep.workbench.head(), tree: prep.workbench.tree() };
  const applyOnHost = (k: number): Promise<ApplyResult> => {
    const c = candidates[k]!;
    // dated by the iteration's start, so resume replays it into the very same commit
    const run = prep.workbench.applyPatch(c.patch, {
      iteration: n,
      summary,
      message: iterationCommitMessage(rec.state, n, files, explanation),
      ...(req.author ? { author: req.author } : {}),
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
  // the time follows the suite: a multiple of what the baseline took, at least [tools] test_timeout
  const limitMs = testTimeoutMs(config.tools, rec.state.baseline);
  const onTestOutput = (stream: 'stdout' | 'stderr', chunk: Buffer): void =>
    deps.emit({ type: 'test_output', run_id: runId, iteration: n, stream, chunk: chunk.toString('utf8') });
  await rec.flush();
  const message = cutAtWord(iterationCommit(rec.state, n, files, null).subject, SUBJECT_MAX);
  const inSandbox = await prep.repo.step(
    prep.sandboxHead,
    `iter-${String(n).padStart(2, '0')}.patch`,
    candidates,
    message,
    { command: focus?.command ?? req.testCommand, timeoutMs: limitMs, onOutput: onTestOutput },
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
    await rec.recordPhase('validate', n, t0, checkedMs + inSandbox.validateMs, 'failed');
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
        patch: {
          ...patchRecord,
          files,
          rung: chosen.rung,
          ...(appliedArtifact ? { applied_artifact: appliedArtifact } : {}),
        },
      },
      now,
    ),
  );
  // the sandbox's commit is the one the host's tree makes (or, when it named its tree, that tree is the host's)
  if (prep.treesComparable) {
    if (inSandbox.tree !== undefined) assertSameTree(onHost.tree, inSandbox.tree, n);
    else assertSameCommit(sandboxCommitId(onHost.tree, prep.sandboxHead, message), inSandbox.commit, n);
  }
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
    if (focusedRunStands(test, rec.state, config.tests.known_failures)) test = { ...test, scope: 'focused' };
    else {
      // the focused tests pass (or named nothing): the whole suite decides
      const full = await prep.repo.test(req.testCommand, limitMs, onTestOutput, signal);
      test = withFocus(recordOf(full, req.testCommand), test);
      testLog = `${testLog}\n${renderTestLog(req.testCommand, full)}`;
      testMs += full.durationMs;
    }
  }
  await rec.artifact(testName, testLog, { behind: true });
  // failures in tests that did not fail at baseline: re-run once at the base before they count
  const rerun =
    prep.sandboxBase === '' ? null : baseRerunPlan(rec.state, test, config.tests.known_failures, req.testCommand);
  if (rerun !== null) {
    const r = await rerunAtBase(rec, deps, prep, n, rerun, {
      timeoutMs: limitMs,
      headLines: config.prompt.output_head_lines,
      tailLines: config.prompt.output_tail_lines,
      failureLines: config.prompt.output_failure_lines,
      maxFailures: config.prompt.output_max_failures,
    });
    rec.change((s) => ({ ...s, base_reruns: [...(s.base_reruns ?? []), r] }));
    deps.emit({
      type: 'notice',
      run_id: runId,
      at: deps.now().toISOString(),
      level: 'info',
      text: `${r.tests.length} test(s) that failed after iteration ${n} but not at baseline, re-run at the base commit: ${r.failing.length} fail there too, so they failed before the change${r.failing.length < r.tests.length ? `; ${r.tests.length - r.failing.length} pass there (regressions)` : ''}`,
    });
  }
  // validate, apply and test all ended when the one exec returned: record them and write once,
  // while update_state goes on (a run killed before the write lands resumes from the answer, the
  // same as one killed as the step's results came back)
  rec.change((s, now) =>
    updateIteration(s, n, { validation: { ok: true }, apply: { commit: onHost.commit, tree: onHost.tree }, test }, now),
  );
  await rec.recordPhases(
    n,
    [
      { phase: 'validate', startedAt: t0, durationMs: checkedMs + inSandbox.validateMs },
      {
        phase: 'apply',
        startedAt: new Date(t0.getTime() + checkedMs + inSandbox.validateMs),
        durationMs: inSandbox.applyMs,
      },
      {
        phase: 'test',
        startedAt: new Date(t0.getTime() + checkedMs + inSandbox.validateMs + inSandbox.applyMs),
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

/** Record the iteration's last phase (nothing more to do) and return it. */
export async function finish(rec: RunRecorder, n: number): Promise<Iteration> {
  await rec.phase('update_state', n, async () => undefined, { write: 'behind' });
  return rec.state.iterations.at(-1)!;
}

/** " (applied: hunks relocated by their context)" for any rung but the first. */
function rungNote(rung: Rung): string {
  return rung === 'as_is' ? '' : ` (applied: ${rungLabel(rung)})`;
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? text).trim().slice(0, 200);
}
