// An agent-mode iteration: read state (the task prompt), generate (a trajectory of tool calls in the
// sandbox, from the iteration's head), extract (the submitted change, or the work tree's change when
// a bound ended it), then the same candidate path a diff answer takes.
import { familyFormat } from '../../agent/model-family.js';
import { AGENT_TOOLS, agentToolsText } from '../../agent/tool-specs.js';
import type { ChatMessage, GenerateResult, RecordedAnswer } from '../../llm/index.js';
import { modelExplanation } from '../../edits/explanation.js';
import { artifactNames } from '../../state/artifact-names.js';
import type { Iteration, RunState } from '../../state/run-state.js';
import { startIteration, updateIteration } from '../../state/transitions.js';
import { finish, judgeCandidate, type CandidatePatch } from '../candidate.js';
import { contextRecord } from '../context-record.js';
import { agentPromptFor, sharedWithPrevious } from '../iteration-prompt.js';
import type { RunRecorder } from '../phase-runner.js';
import type { Prepared } from '../prepare.js';
import { renderPromptArtifact } from '../prompt.js';
import type { RunDeps, RunRequest } from '../run-types.js';
import { agentSteps } from '../stop-conditions.js';
import { agentSystemMessage, type AgentPromptOptions } from './prompt.js';
import { TrajectoryRecorder } from './record.js';
import { deadline } from './deadline.js';
import { AgentTools, type SubmittedChange } from './tools.js';
import { testTimeoutMs } from '../test-timeout.js';
import { runTrajectory, type TrajectoryOutcome } from './trajectory.js';

/**
 * Run iteration n+1 as a trajectory, recording every turn and step. `pending`: the answers an
 * interrupted run had already received for this iteration (resume): played back first, their calls
 * run again to rebuild the work tree, before the model is asked for more.
 */
export async function runAgentIteration(
  rec: RunRecorder,
  deps: RunDeps,
  req: RunRequest,
  prep: Prepared,
  pending: readonly RecordedAnswer[] = [],
): Promise<Iteration> {
  const { config } = req;
  const signal = deps.signal;
  const state = rec.change((s, now) => startIteration(s, now));
  const n = state.iterations.at(-1)!.n;
  const set = async (change: Partial<Omit<Iteration, 'n'>>): Promise<RunState> =>
    rec.change((s, now) => updateIteration(s, n, change, now));
  // the work tree goes back to the iteration's head while the prompt is built and the model answers
  const ready = prep.ready().then(() => prep.repo.reset(prep.sandboxHead, signal).then(() => undefined));
  ready.catch(() => undefined); // awaited before the first call runs
  let native = config.model.tools === 'auto' && !prep.toolsRefused;
  // the system message that teaches calls in text, once the server refused native tools
  let textSystem: string | undefined;
  const promptOptions = (): AgentPromptOptions => ({
    testCommand: req.testCommand,
    commandTimeoutS: config.agent.command_timeout,
    testTimeoutS: Math.ceil(testTimeoutMs(config.tools, rec.state.baseline) / 1000),
    native,
    toolsText: agentToolsText(),
    maxSteps: config.agent.max_steps,
  });

  // 1. read state: the directive, the tree and map, the last test run, the changes so far
  const { prompt, context } = await rec.phase(
    'read_state',
    n,
    () => agentPromptFor(rec.state, req, prep, deps.store, n, promptOptions(), signal),
    { write: 'behind' },
  );
  const promptArtifact = artifactNames.prompt(n);
  const promptText = renderPromptArtifact(prompt);
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

  // 2. generate: the trajectory
  const recorder = new TrajectoryRecorder(rec, deps, n, prompt.messages);
  // the words of its last turn that had any: the commit's body (beside the submit)
  let lastThought = '';
  const queue = [...pending];
  const generate = async (messages: ChatMessage[], timeLeftMs: number): Promise<GenerateResult | null> => {
    const replayed = queue.shift();
    if (replayed) return playedBack(replayed, rec.state.model.name);
    // the request gets what is left of the trajectory's wall time (agent.max_seconds)
    const due = deadline(timeLeftMs, signal);
    const a = await deps.provider
      .generate({
        messages: textSystem === undefined ? messages : [{ role: 'system', content: textSystem }, ...messages.slice(1)],
        ...(native ? { tools: AGENT_TOOLS } : {}),
        signal: due.signal,
        onProgress: (p) =>
          deps.emit({
            type: 'model_progress',
            run_id: rec.state.run_id,
            iteration: n,
            tokens: p.tokens,
            tps: p.tokensPerSecond,
            elapsed_ms: p.elapsedMs,
          }),
      })
      .catch((err: unknown) => {
        if (due.expired()) return null;
        throw err;
      });
    if (a === null) return null;
    if (a.toolsRefused !== undefined && native) {
      // the rest of the run calls tools in the text the system message now teaches
      native = false;
      prep.toolsRefused = true;
      textSystem = agentSystemMessage(promptOptions());
      deps.emit({
        type: 'notice',
        run_id: rec.state.run_id,
        at: deps.now().toISOString(),
        level: 'warning',
        text: `the model server refused tool calls (${a.toolsRefused}); the model calls tools in text for the rest of the run`,
      });
    }
    return a;
  };
  const tools = new AgentTools({
    repo: prep.repo,
    config,
    head: () => prep.sandboxHead,
    ready: () => ready,
    tests: { command: req.testCommand, timeoutS: Math.ceil(testTimeoutMs(config.tools, rec.state.baseline) / 1000) },
    ...(signal ? { signal } : {}),
  });
  // the readable trajectory is written when it ends, or as far as it got when it is cut short
  const outcome = await rec
    .phase(
      'generate',
      n,
      () =>
        runTrajectory(
          prompt.messages,
          {
            generate,
            execute: (action, timeLeftMs) => tools.run(action, timeLeftMs),
            onTurn: async (t) => {
              if (t.parsed.thought.trim() !== '') lastThought = t.parsed.thought;
              return recorder.turn(t);
            },
            onStep: (s) => recorder.step(s),
            onNudge: (pattern, message) => recorder.nudge(pattern, message),
            now: () => performance.now(),
            callFormat: () => familyFormat(config.model.name) ?? (native ? 'native' : 'qwen-xml'),
          },
          {
            maxSteps: config.agent.max_steps,
            runStepsLeft: config.agent.max_run_steps - agentSteps(rec.state),
            maxMs: config.agent.max_seconds * 1000,
            maxTokens: config.agent.max_tokens,
            historyTokens: config.agent.history_tokens,
          },
        ),
      { write: false },
    )
    .catch(async (err: unknown) => {
      await recorder.writeArtifact().catch(() => undefined);
      throw err;
    });
  await recorder.end(outcome);

  // 3. extract: the submitted change; at a bound, whatever the work tree holds is judged all the same
  const change = await rec.phase('extract', n, () => changeOf(outcome, tools), { write: 'behind' });
  if (typeof change === 'string' || change.patch === '') {
    const noChanges = typeof change !== 'string' && outcome.reason === 'submitted';
    const reason = typeof change === 'string' ? change : `the trajectory ended (${outcome.reason}) without a change`;
    await set({
      extraction: noChanges ? { kind: 'no_changes' } : { kind: 'unusable', reason },
      outcome: noChanges ? 'no_changes' : 'unusable',
      summary: noChanges ? 'the agent submitted no change' : `no usable change: ${reason}`,
    });
    return finish(rec, n);
  }
  return judgeCandidate(rec, deps, req, prep, n, candidateOf(change), modelExplanation(lastThought));
}

/** The change to judge: the submitted one, else the work tree's (a string: why there is none). */
async function changeOf(outcome: TrajectoryOutcome, tools: AgentTools): Promise<SubmittedChange | string> {
  if (outcome.submitted) return outcome.submitted;
  const r = await tools.run({ tool: 'submit' });
  return r.submitted ?? r.observation;
}

/** A submitted change as the one candidate of the shared path (applied as is: git made it). */
function candidateOf(c: SubmittedChange): CandidatePatch {
  return {
    kind: 'diff',
    patch: c.patch,
    format: 'udiff',
    files: c.files,
    lines: c.lines,
    added: c.added,
    removed: c.removed,
    hash: c.hash,
    blocks: c.files.length,
    fixes: [],
    candidates: [{ rung: 'as_is', flags: [], patch: c.patch }],
    failures: [],
  };
}

/** A recorded answer as the model's (resume): no request, no time. */
function playedBack(a: RecordedAnswer, model: string): GenerateResult {
  return {
    text: a.text,
    model,
    durationMs: 0,
    firstTokenMs: 0,
    attempts: 0,
    ...(a.finishReason === undefined ? {} : { finishReason: a.finishReason }),
    ...(a.toolCalls === undefined || a.toolCalls.length === 0 ? {} : { toolCalls: a.toolCalls }),
    // a trajectory a bound had ended ends after the same answer again
    ...(a.trajectoryEnd === undefined ? {} : { trajectoryEnd: a.trajectoryEnd }),
  };
}
