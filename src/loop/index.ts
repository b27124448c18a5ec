// The loop's functional core: interpreting answers, stop conditions, prompt, events.
export * from './events.js';
export * from './interpret-answer.js';
export * from './stop-conditions.js';
export * from './signal.js';
export * from './prompt-context.js';
export * from './prompt.js';
export * from './test-record.js';
