import { describe, expect, it } from 'vitest';
import { ignoreEvents, type LoopEmitter, type LoopEvent } from '../../../src/loop/events.js';

describe('loop events', () => {
  it('an emitter receives typed events in order', () => {
    const seen: LoopEvent[] = [];
    const emit: LoopEmitter = (e) => seen.push(e);
    emit({ type: 'phase_started', run_id: 'r', at: 't', iteration: 1, phase: 'generate' });
    emit({ type: 'model_progress', run_id: 'r', iteration: 1, tokens: 10, tps: 5, elapsed_ms: 2000 });
    emit({
      type: 'phase_finished',
      run_id: 'r',
      at: 't',
      iteration: null,
      phase: 'baseline',
      status: 'done',
      duration_ms: 3,
    });
    expect(seen.map((e) => e.type)).toEqual(['phase_started', 'model_progress', 'phase_finished']);
    expect(
      ignoreEvents({ type: 'test_output', run_id: 'r', iteration: null, stream: 'stdout', chunk: 'x' }),
    ).toBeUndefined();
  });
});
