// The trajectory loop with a scripted model and fake tools: what goes back to the model after each
// call, and every way a trajectory ends (submit, malformed turns, stuck, each bound, a replay's end).
import { describe, expect, it } from 'vitest';
import type { AgentAction } from '../../../../src/agent/types.js';
import type { ChatMessage, GenerateResult, ToolCall } from '../../../../src/llm/types.js';
import type { ToolResult } from '../../../../src/loop/agent/tools.js';
import { runTrajectory, Trajectory, type TrajectoryDeps } from '../../../../src/loop/agent/trajectory.js';

const START: ChatMessage[] = [
  { role: 'system', content: 'system' },
  { role: 'user', content: 'task' },
];
const BOUNDS = {
  maxSteps: 40,
  runStepsLeft: 150,
  maxMs: 60_000,
  maxTokens: 1_000_000,
  historyTokens: 100_000,
};
const CHANGE = { patch: 'diff', files: [], lines: 1, added: 1, removed: 0, hash: 'h' };

function native(name: string, args: Record<string, unknown>, id = 'call_1'): Partial<GenerateResult> {
  const call: ToolCall = { id, name, arguments: JSON.stringify(args) };
  return { text: '', toolCalls: [call] };
}
const xml = (command: string): Partial<GenerateResult> => ({
  text: `Let me look.\n<function=bash>\n<parameter=command>\n${command}\n</parameter>\n</function>`,
});

/** A scripted model, fake tools that answer `observe(action)`, and everything they saw. */
function harness(
  answers: Partial<GenerateResult>[],
  observe: (a: AgentAction, k: number) => Partial<ToolResult> = () => ({}),
  opts: { clockStep?: number } = {},
) {
  const sent: ChatMessage[][] = [];
  const executed: AgentAction[] = [];
  const turns: { shared?: number; elided: number; sent: string }[] = [];
  const nudges: string[] = [];
  let clock = 0;
  const deps: TrajectoryDeps = {
    generate: async (messages) => {
      sent.push(messages.map((m) => ({ ...m })));
      const a = answers.shift();
      if (!a) throw new Error('the scripted model has no more answers');
      return { text: '', model: 'm', durationMs: 1, firstTokenMs: 1, attempts: 1, ...a };
    },
    execute: async (action) => {
      executed.push(action);
      const r = observe(action, executed.length);
      if (action.tool === 'submit') return { outcome: 'ok', observation: 'submitted', submitted: CHANGE, ...r };
      return { outcome: 'ok', observation: `ran ${executed.length}`, ...r };
    },
    onTurn: async (t) => void turns.push(t),
    onStep: () => undefined,
    onNudge: (pattern) => void nudges.push(pattern),
    now: () => (clock += opts.clockStep ?? 1),
  };
  return { deps, sent, executed, turns, nudges };
}

describe('runTrajectory', () => {
  it('runs native calls, answers each with a tool message, and ends at submit with the change', async () => {
    const h = harness([native('bash', { command: 'ls' }), native('submit', {}, 'call_2')]);
    const out = await runTrajectory(START, h.deps, BOUNDS);
    expect(out).toMatchObject({ reason: 'submitted', submitted: CHANGE });
    expect(h.executed).toEqual([{ tool: 'bash', command: 'ls' }, { tool: 'submit' }]);
    const second = h.sent[1]!;
    expect(second.slice(0, 2)).toEqual(START);
    expect(second[2]).toMatchObject({ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'bash' }] });
    expect(second[3]).toEqual({ role: 'tool', content: 'ran 1', toolCallId: 'call_1', toolName: 'bash' });
    // each request starts with the whole previous one
    expect(h.turns[1]!.shared).toBe(h.turns[0]!.sent.length);
  });

  it('answers calls written in the text with a user message', async () => {
    const h = harness([xml('grep -n x a.py'), native('submit', {})]);
    await runTrajectory(START, h.deps, BOUNDS);
    expect(h.executed[0]).toEqual({ tool: 'bash', command: 'grep -n x a.py' });
    expect(h.sent[1]!.slice(2)).toEqual([
      { role: 'assistant', content: xml('grep -n x a.py').text },
      { role: 'user', content: 'ran 1' },
    ]);
  });

  it('tells the model what was wrong with a turn, nudges after two such turns, and ends after three', async () => {
    const h = harness([{ text: 'I think the bug is in a.py.' }, native('frobnicate', {}), { text: 'hmm' }]);
    const out = await runTrajectory(START, h.deps, BOUNDS);
    expect(out.reason).toBe('malformed');
    expect(h.executed).toHaveLength(0);
    expect(h.sent[1]!.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('has no tool call') });
    const [answered, nudge] = h.sent[2]!.slice(-2);
    expect(answered).toMatchObject({ role: 'tool', toolCallId: 'call_1' });
    expect(answered!.content).toContain('could not be used');
    expect(nudge).toMatchObject({ role: 'user' });
    expect(h.nudges).toEqual(['malformed']);
  });

  it('a usable call resets the count; unusable turns that come back after the nudge end the trajectory as stuck', async () => {
    const h = harness([{ text: 'a' }, { text: 'b' }, xml('ls'), { text: 'c' }, { text: 'd' }, { text: 'e' }]);
    const out = await runTrajectory(START, h.deps, BOUNDS);
    expect(out).toMatchObject({ reason: 'stuck', detail: expect.stringContaining('malformed') });
    expect(h.executed).toHaveLength(1);
    expect(h.sent).toHaveLength(5);
  });

  it('nudges a model that repeats itself once, then ends the trajectory as stuck', async () => {
    const h = harness(
      Array.from({ length: 6 }, () => native('bash', { command: 'ls' })),
      () => ({
        observation: 'same',
      }),
    );
    const out = await runTrajectory(START, h.deps, BOUNDS);
    expect(out.reason).toBe('stuck');
    expect(h.nudges).toEqual(['repeat']);
    // the nudge followed the third repeat's observation
    expect(h.sent[3]!.at(-1)).toMatchObject({ role: 'user' });
    expect(h.executed.length).toBeLessThan(6);
  });

  it('ends at the step bound, the run step bound, the wall time and the token bound', async () => {
    const calls = (): Partial<GenerateResult>[] =>
      Array.from({ length: 10 }, (_, i) => native('bash', { command: `ls ${i}` }));
    let h = harness(calls());
    expect((await runTrajectory(START, h.deps, { ...BOUNDS, maxSteps: 3 })).reason).toBe('max_steps');
    expect(h.executed).toHaveLength(3);
    h = harness(calls());
    expect((await runTrajectory(START, h.deps, { ...BOUNDS, maxSteps: 5, runStepsLeft: 2 })).reason).toBe(
      'max_run_steps',
    );
    expect(h.executed).toHaveLength(2);
    h = harness(calls(), () => ({}), { clockStep: 1000 });
    expect((await runTrajectory(START, h.deps, { ...BOUNDS, maxMs: 4500 })).reason).toBe('max_seconds');
    h = harness(calls().map((a) => ({ ...a, promptTokens: 600, completionTokens: 100 })));
    expect((await runTrajectory(START, h.deps, { ...BOUNDS, maxTokens: 2000 })).reason).toBe('max_tokens');
    expect(h.sent).toHaveLength(3);
  });

  it('max_seconds is a deadline: each command gets the time left, the model request what is left, and null from it ends the trajectory', async () => {
    const left: number[] = [];
    let clock = 0;
    const answers: (Partial<GenerateResult> | null)[] = [native('bash', { command: 'sleep 45' }), null];
    const deps: TrajectoryDeps = {
      ...harness([]).deps,
      now: () => clock,
      generate: async (_messages, timeLeftMs) => {
        left.push(timeLeftMs);
        clock += 2000; // the model takes 2 s
        const a = answers.shift();
        return a === null || a === undefined
          ? null
          : { text: '', model: 'm', durationMs: 1, firstTokenMs: 1, attempts: 1, ...a };
      },
      execute: async (_action, timeLeftMs) => {
        left.push(timeLeftMs);
        clock += Math.min(45_000, timeLeftMs); // the command is killed when the time left runs out
        return { outcome: 'failed', observation: 'killed', timedOut: true };
      },
    };
    const out = await runTrajectory(START, deps, { ...BOUNDS, maxMs: 15_000 });
    expect(left).toEqual([15_000, 13_000]);
    expect(out.reason).toBe('max_seconds');
    expect(clock).toBe(15_000);
    // a request the deadline aborted ends the trajectory at the bound too
    const late: TrajectoryDeps = { ...harness([]).deps, generate: async () => null };
    expect(await runTrajectory(START, late, BOUNDS)).toMatchObject({
      reason: 'max_seconds',
      detail: expect.stringContaining('while the model was answering'),
    });
  });

  it('a cut-off answer runs none of its calls and is asked again, shorter; native calls are each answered', async () => {
    const whole = xml('ls');
    const h = harness([
      { ...whole, finishReason: 'length' },
      {
        text: '<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=edit>\n<parameter=command>create</parameter>\n<parameter=path>a.py</parameter>\n<parameter=file_text>\nimport os\n',
      },
      xml('pwd'),
      {
        text: '',
        finishReason: 'length',
        toolCalls: [
          { id: 'a', name: 'bash', arguments: '{"command":"ls"}' },
          { id: 'b', name: 'bash', arguments: '{"command":"pwd"}' },
        ],
      },
      native('submit', {}),
    ]);
    const out = await runTrajectory(START, h.deps, BOUNDS);
    expect(out.reason).toBe('submitted');
    expect(h.executed).toEqual([{ tool: 'bash', command: 'pwd' }, { tool: 'submit' }]);
    expect(h.sent[1]!.at(-1)!.content).toMatch(/cut off at the token limit.*none of the calls in it were run/);
    expect(h.sent[2]!.at(-2)!.content).toMatch(/never closed: it was cut off; none of the calls in it were run/);
    const answered = h.sent[4]!.slice(-2);
    expect(answered).toMatchObject([
      { role: 'tool', toolCallId: 'a', content: expect.stringContaining('cut off') },
      { role: 'tool', toolCallId: 'b' },
    ]);
  });

  it("an answer without a call is shown an example in its family's format, or the one it came closest to", async () => {
    const h = harness([
      { text: 'I will look at a.py.' },
      { text: 'Calling {"name": "bash"} now.' },
      native('submit', {}),
    ]);
    await runTrajectory(START, { ...h.deps, callFormat: () => 'harmony' }, BOUNDS);
    expect(h.sent[1]!.at(-1)!.content).toContain(
      '<|channel|>commentary to=functions.bash <|constrain|>json<|message|>',
    );
    expect(h.sent[2]!.at(-2)!.content).toContain('Write the call as {"name": "bash", "arguments": {"command":');
  });

  it('stops running the calls of one answer at the step bound; the calls not run are answered too', async () => {
    const two: Partial<GenerateResult> = {
      text: '',
      toolCalls: [
        { id: 'a', name: 'bash', arguments: '{"command":"ls"}' },
        { id: 'b', name: 'bash', arguments: '{"command":"pwd"}' },
      ],
    };
    const h = harness([two]);
    const out = await runTrajectory(START, h.deps, { ...BOUNDS, maxSteps: 1 });
    expect(out.reason).toBe('max_steps');
    expect(h.executed).toEqual([{ tool: 'bash', command: 'ls' }]);
  });

  it('a refused submit goes back to the model and the trajectory goes on', async () => {
    const h = harness([native('submit', {}), native('bash', { command: 'rm x.bin' }), native('submit', {})], (a, k) =>
      a.tool === 'submit' && k === 1
        ? { outcome: 'refused', observation: 'submit refused: binary', submitted: undefined }
        : {},
    );
    const out = await runTrajectory(START, h.deps, BOUNDS);
    expect(out.reason).toBe('submitted');
    expect(h.sent[1]!.at(-1)!.content).toBe('submit refused: binary');
  });

  it('a replayed answer that carries the recorded end ends the trajectory there', async () => {
    const h = harness([{ ...native('bash', { command: 'ls' }), trajectoryEnd: 'max_seconds' }]);
    const out = await runTrajectory(START, h.deps, BOUNDS);
    expect(out.reason).toBe('max_seconds');
    expect(h.executed).toHaveLength(1);
  });

  it('keeps the history under its budget by eliding old observations', async () => {
    const big = 'x'.repeat(4000);
    const h = harness(
      Array.from({ length: 8 }, (_, i) => native('bash', { command: `cat f${i}` })).concat([native('submit', {})]),
      () => ({
        observation: big,
      }),
    );
    await runTrajectory(START, h.deps, { ...BOUNDS, historyTokens: 4000 });
    const last = h.sent.at(-1)!;
    expect(last.reduce((n, m) => n + m.content.length, 0)).toBeLessThan(8 * 4000);
    expect(h.turns.at(-1)!.elided).toBeGreaterThan(0);
  });
});

describe('Trajectory, turn by turn (a person drives it)', () => {
  it('with talk, an answer without a call is the answer: the history keeps it and the next message follows it', async () => {
    const h = harness([native('bash', { command: 'cat a.py' }), { text: 'The bug is on line 3.' }, { text: 'Done.' }]);
    const t = new Trajectory(START, h.deps, BOUNDS);
    expect(await t.turn({ talk: true })).toEqual({ kind: 'more' });
    expect(await t.turn({ talk: true })).toEqual({ kind: 'answered', text: 'The bug is on line 3.' });
    expect(t.history.at(-1)).toEqual({ role: 'assistant', content: 'The bug is on line 3.' });
    t.history.push({ role: 'user', content: 'fix it' });
    t.restart();
    expect(t.counts.steps).toBe(0);
    expect(await t.turn({ talk: true })).toMatchObject({ kind: 'answered' });
    // the third request holds the whole conversation, the person's second message last
    expect(h.sent[2]!.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('without talk, the same answer is an unusable turn', async () => {
    const h = harness([{ text: 'The bug is on line 3.' }]);
    const t = new Trajectory(START, h.deps, BOUNDS);
    expect(await t.turn()).toEqual({ kind: 'more' });
    expect(t.history.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('has no tool call') });
  });

  it('a turn stopped while its calls ran is settled: every native call is answered', async () => {
    const two: Partial<GenerateResult> = {
      text: '',
      toolCalls: [
        { id: 'a', name: 'bash', arguments: '{"command":"ls"}' },
        { id: 'b', name: 'bash', arguments: '{"command":"sleep 100"}' },
      ],
    };
    const h = harness([two], (a) => {
      if (a.tool === 'bash' && a.command.startsWith('sleep')) throw new Error('aborted');
      return {};
    });
    const t = new Trajectory(START, h.deps, BOUNDS);
    await expect(t.turn({ talk: true })).rejects.toThrow('aborted');
    t.settleInterrupted('(stopped by the user)');
    expect(t.history.slice(-2)).toEqual([
      { role: 'tool', content: 'ran 1', toolCallId: 'a', toolName: 'bash' },
      { role: 'tool', content: '(stopped by the user)', toolCallId: 'b', toolName: 'bash' },
    ]);
    // nothing more to settle
    t.settleInterrupted('again');
    expect(t.history).toHaveLength(START.length + 3);
  });

  it('restart gives a new stretch of work its own step bound', async () => {
    const calls = Array.from({ length: 4 }, (_, i) => native('bash', { command: `ls ${i}` }));
    const h = harness(calls);
    const t = new Trajectory(START, h.deps, { ...BOUNDS, maxSteps: 2 });
    await t.turn({ talk: true });
    await t.turn({ talk: true });
    expect(await t.turn({ talk: true })).toMatchObject({ kind: 'end', outcome: { reason: 'max_steps' } });
    t.restart();
    expect(await t.turn({ talk: true })).toEqual({ kind: 'more' });
  });
});
