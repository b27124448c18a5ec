// The stuck detector: each pattern nudges once, then stops the trajectory; progress is left alone.
import { describe, expect, it } from 'vitest';
import { judgeStuck, NUDGES, type StepKey, type StuckPattern } from '../../../src/agent/stuck.js';

const ok = (action: string, observation = `out of ${action}`): StepKey => ({ action, observation, failed: false });
const fail = (action: string, observation = `error of ${action}`): StepKey => ({ action, observation, failed: true });
const bad: StepKey = { action: '', observation: '', failed: true, malformed: true };
const none = new Set<StuckPattern>();

describe('judgeStuck', () => {
  it('progress is ok', () => {
    expect(judgeStuck([], none)).toEqual({ kind: 'ok' });
    expect(judgeStuck([ok('ls'), ok('view a'), ok('edit a'), ok('pytest')], none)).toEqual({ kind: 'ok' });
    expect(judgeStuck([ok('ls'), ok('ls')], none)).toEqual({ kind: 'ok' });
  });

  it('the same action and observation three times: a nudge, then stuck', () => {
    const steps = [ok('view a'), ok('ls'), ok('ls'), ok('ls')];
    expect(judgeStuck(steps, none)).toEqual({ kind: 'nudge', pattern: 'repeat', message: NUDGES.repeat });
    expect(judgeStuck([...steps, ok('ls')], new Set(['repeat']))).toEqual({ kind: 'stuck', pattern: 'repeat' });
  });

  it('the same action with a new observation each time is no repeat', () => {
    expect(judgeStuck([ok('pytest', '3 failed'), ok('pytest', '2 failed'), ok('pytest', '1 failed')], none)).toEqual({
      kind: 'ok',
    });
  });

  it('the same action failing three times in a row, whatever it printed', () => {
    const steps = [fail('pytest', 'a'), fail('pytest', 'b'), fail('pytest', 'c')];
    expect(judgeStuck(steps, none)).toMatchObject({ kind: 'nudge', pattern: 'failing_action' });
    expect(judgeStuck(steps, new Set(['failing_action']))).toEqual({ kind: 'stuck', pattern: 'failing_action' });
  });

  it('a failing action with work between its runs is not stuck', () => {
    expect(judgeStuck([fail('pytest'), ok('edit a'), fail('pytest'), ok('edit b'), fail('pytest')], none)).toEqual({
      kind: 'ok',
    });
  });

  it('three identical failures are a repeat (the first pattern that shows decides)', () => {
    expect(judgeStuck([fail('x'), fail('x'), fail('x')], none)).toMatchObject({ kind: 'nudge', pattern: 'repeat' });
    expect(judgeStuck([fail('x'), fail('x'), fail('x')], new Set(['repeat']))).toEqual({
      kind: 'stuck',
      pattern: 'repeat',
    });
  });

  it('two actions alternating A B A B A B, then one more', () => {
    const steps = [
      ok('ls'),
      ok('edit a', '1'),
      ok('undo a', '2'),
      ok('edit a', '3'),
      ok('undo a', '4'),
      ok('edit a', '5'),
      ok('undo a', '6'),
    ];
    expect(judgeStuck(steps.slice(0, 6), none)).toEqual({ kind: 'ok' });
    expect(judgeStuck(steps, none)).toEqual({ kind: 'nudge', pattern: 'alternating', message: NUDGES.alternating });
    expect(judgeStuck([...steps, ok('edit a', '7')], new Set(['alternating']))).toEqual({
      kind: 'stuck',
      pattern: 'alternating',
    });
  });

  it('a pattern nudged before shows again later: stuck', () => {
    const steps = [ok('ls'), ok('ls'), ok('ls'), ok('view a'), ok('cat b'), ok('cat b'), ok('cat b')];
    expect(judgeStuck(steps, new Set(['repeat']))).toEqual({ kind: 'stuck', pattern: 'repeat' });
  });

  it('another pattern than the one nudged gets its own nudge', () => {
    expect(judgeStuck([fail('a', '1'), fail('a', '2'), fail('a', '3')], new Set(['repeat']))).toMatchObject({
      kind: 'nudge',
      pattern: 'failing_action',
    });
  });

  it('two malformed turns in a row: a nudge; a third: stuck', () => {
    expect(judgeStuck([ok('ls'), bad], none)).toEqual({ kind: 'ok' });
    expect(judgeStuck([ok('ls'), bad, bad], none)).toEqual({
      kind: 'nudge',
      pattern: 'malformed',
      message: NUDGES.malformed,
    });
    expect(judgeStuck([ok('ls'), bad, bad, bad], new Set(['malformed']))).toEqual({
      kind: 'stuck',
      pattern: 'malformed',
    });
  });

  it('a malformed turn breaks the other patterns', () => {
    expect(judgeStuck([ok('ls'), ok('ls'), bad, ok('ls')], none)).toEqual({ kind: 'ok' });
    expect(judgeStuck([ok('ls'), ok('ls'), ok('ls'), bad], none)).toEqual({ kind: 'ok' });
  });

  it('every nudge is a message of its own', () => {
    expect(new Set(Object.values(NUDGES)).size).toBe(4);
  });
});
