// History elision: under budget, what is never elided, and the prefix that stays byte-identical
// between consecutive requests until a new block is elided.
import { describe, expect, it } from 'vitest';
import { elideHistory } from '../../../src/agent/history.js';
import type { ChatMessage } from '../../../src/llm/types.js';

const estimate = (s: string): number => Math.ceil(s.length / 4);

/** A deterministic pseudo-random source (a test must not depend on Math.random). */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

/** system, task, then `steps` steps: a native call answered by a tool message, or a text call answered by a user message. */
function trajectory(steps: number, seed = 1): ChatMessage[][] {
  const rnd = lcg(seed);
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are a coding agent.\n'.repeat(40) },
    { role: 'user', content: 'Fix the failing test.\n'.repeat(60) },
  ];
  const states: ChatMessage[][] = [[...messages]];
  for (let s = 0; s < steps; s++) {
    const lines = 1 + Math.floor(rnd() * 120);
    const output = Array.from({ length: lines }, (_, i) => `step ${s} output line ${i}`).join('\n');
    if (rnd() < 0.6) {
      const id = `call_${s}`;
      messages.push({
        role: 'assistant',
        content: `thinking ${s}`,
        toolCalls: [{ id, name: 'bash', arguments: `{"command":"cmd ${s}"}` }],
      });
      messages.push({ role: 'tool', content: output, toolCallId: id, toolName: 'bash' });
    } else {
      messages.push({
        role: 'assistant',
        content: `<function=bash><parameter=command>cmd ${s}</parameter></function>`,
      });
      messages.push({ role: 'user', content: output });
    }
    states.push([...messages]);
  }
  return states;
}

describe('elideHistory', () => {
  it('under budget: the messages as they are', () => {
    const [, one] = trajectory(1);
    const r = elideHistory(one!, { budgetTokens: 100_000, keepLast: 2, estimate });
    expect(r).toEqual({
      messages: one,
      elided: 0,
      tokens: one!.reduce((n, m) => n + estimate(m.content), 0) + estimate('bash') + estimate('{"command":"cmd 0"}'),
    });
  });

  it('replaces the oldest observations with a line counting theirs', () => {
    const history: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'x\n'.repeat(400) },
      { role: 'assistant', content: 'a2', toolCalls: [{ id: 'c', name: 'bash', arguments: '{}' }] },
      { role: 'tool', content: 'y\n'.repeat(400), toolCallId: 'c', toolName: 'bash' },
      { role: 'assistant', content: 'a3' },
      { role: 'user', content: 'z\n'.repeat(400) },
    ];
    const r = elideHistory(history, { budgetTokens: 600, keepLast: 1, estimate });
    expect(r.messages[3]).toEqual({ role: 'user', content: '(400 lines of output omitted)' });
    expect(r.messages[5]).toEqual({
      role: 'tool',
      content: '(400 lines of output omitted)',
      toolCallId: 'c',
      toolName: 'bash',
    });
    expect(r.messages[7]).toBe(history[7]);
    expect(r.elided).toBe(2);
    expect(r.tokens).toBeLessThanOrEqual(600);
  });

  it('never elides the system message, the task, assistant messages or the last keepLast observations', () => {
    const states = trajectory(60, 7);
    const all = states.at(-1)!;
    const r = elideHistory(all, { budgetTokens: 3000, keepLast: 3, estimate });
    expect(r.elided).toBeGreaterThan(10);
    expect(r.messages[0]).toBe(all[0]);
    expect(r.messages[1]).toBe(all[1]);
    const observations = all.flatMap((m, i) => (i > 1 && m.role !== 'assistant' ? [i] : []));
    for (const i of observations.slice(-3)) expect(r.messages[i]).toBe(all[i]);
    all.forEach((m, i) => {
      if (m.role === 'assistant') expect(r.messages[i]).toBe(m);
    });
  });

  it('an observation whose marker is no shorter is left as it is', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'task' },
      { role: 'user', content: 'ok' },
      { role: 'user', content: 'w'.repeat(4000) },
      { role: 'user', content: 'last' },
    ];
    const r = elideHistory(history, { budgetTokens: 100, keepLast: 1, estimate });
    expect(r.messages.map((m) => m.content)).toEqual(['task', 'ok', '(1 line of output omitted)', 'last']);
    expect(r.elided).toBe(1);
  });

  it('says when eliding everything allowed is not enough', () => {
    const history: ChatMessage[] = [
      { role: 'system', content: 's'.repeat(4000) },
      { role: 'user', content: 'task' },
      { role: 'user', content: 'o\n'.repeat(100) },
    ];
    const r = elideHistory(history, { budgetTokens: 500, keepLast: 0, estimate });
    expect(r.elided).toBe(1);
    expect(r.tokens).toBeGreaterThan(500);
  });

  it('the prefix stays byte-identical from one request to the next until a new block is elided', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const states = trajectory(120, seed);
      const opts = { budgetTokens: 8000, keepLast: 2, estimate };
      const results = states.map((s) => elideHistory(s, opts));
      let breaks = 0;
      let grew = 0;
      for (let n = 1; n < results.length; n++) {
        const before = results[n - 1]!;
        const after = results[n]!;
        const prefix = JSON.stringify(after.messages.slice(0, before.messages.length));
        if (after.elided === before.elided) {
          expect(prefix).toBe(JSON.stringify(before.messages));
          grew++;
        } else {
          breaks++;
          // a new block: at least one more elided, and the history is back well under budget
          expect(after.elided).toBeGreaterThan(before.elided);
          expect(after.tokens).toBeLessThanOrEqual(opts.budgetTokens);
        }
        expect(after.tokens).toBeLessThanOrEqual(opts.budgetTokens);
      }
      // elision happened, and most requests kept the previous one's bytes as their prefix
      expect(breaks).toBeGreaterThan(3);
      expect(grew).toBeGreaterThan(breaks * 3);
    }
  });

  it('the same history gives the same bytes (no state between calls)', () => {
    const s = trajectory(80, 9).at(-1)!;
    const opts = { budgetTokens: 3000, keepLast: 2, estimate };
    expect(JSON.stringify(elideHistory(s, opts))).toBe(JSON.stringify(elideHistory(structuredClone(s), opts)));
  });
});
