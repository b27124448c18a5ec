// What each commit of a run says: the directive's title, the model's words (or what changed), trailers.
import { describe, expect, it } from 'vitest';
import { commitMessage } from '../../../src/git/index.js';
import { iterationCommit, iterationCommitMessage } from '../../../src/loop/commit-text.js';
import { makeState } from '../state/make-state.js';

const RUN_ID = '20261122T140501Z-k3b7qa';
const files = [{ path: 'src/calc.js', status: 'modified' as const }];
const state = (text: string, kind?: 'plan') =>
  makeState({
    run_id: RUN_ID,
    directive: { path: 'D.md', text, sha256: 'd'.repeat(64), ...(kind ? { kind } : {}) },
    model: { provider: 'ollama', name: 'qwen3-coder:30b', url: 'http://localhost:11434' },
  });

describe('iterationCommit', () => {
  it("takes the directive's title as subject and the model's words as body, with the run and model as trailers", () => {
    const msg = iterationCommitMessage(
      state('# Make all tests in test/calc.test.js pass.\n\nMore words.'),
      2,
      files,
      'sum() dropped negative items; it keeps them now.',
    );
    expect(msg).toBe(
      [
        'Make all tests in test/calc.test.js pass',
        '',
        'sum() dropped negative items; it keeps them now.',
        '',
        `Hammer-Box-Run: ${RUN_ID}`,
        'Hammer-Box-Model: ollama:qwen3-coder:30b',
        'Hammer-Box-Iteration: 2',
        '',
      ].join('\n'),
    );
  });

  it("says what the patch changed when the model said nothing, and a plan's title without its Plan: prefix", () => {
    const text = iterationCommit(state('Plan: accept ISO week dates\n\n## Steps\n1. x', 'plan'), 1, files, null);
    expect(text.subject).toBe('Accept ISO week dates');
    expect(text.body).toBe('Update src/calc.js.');
    const none = iterationCommit(state('\n\n'), 1, files, null);
    expect(none.subject).toBe('Update src/calc.js');
    expect(none.body).toBe('');
  });

  it("keeps the model's words from closing issues or mentioning anyone once merged", () => {
    const text = iterationCommit(
      state('Fix it'),
      1,
      files,
      'This fixes #12 and GH-3 (see acme/calc#4); thanks @octocat, mail a@b.io.',
    );
    expect(text.body).toBe('This fixes # 12 and GH 3 (see acme/calc# 4); thanks @ octocat, mail a@b.io.');
  });

  it('cuts a long title at a word to 72 characters', () => {
    const words = 'make the date parser accept ISO week dates such as 2026-W47-3 and reject impossible ones please';
    const subject = commitMessage(iterationCommit(state(words), 1, files, null)).split('\n')[0]!;
    expect(subject).toBe('Make the date parser accept ISO week dates such as 2026-W47-3 and reject');
  });
});
