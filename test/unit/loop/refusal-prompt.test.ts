// What the next prompt says about a refused answer, built the way the loop builds it (the status
// line from the state, the last rejection with the host's feedback and git's message), for refused
// answers of the edit corpus: every refusal names its real reason and none names a wrong one.
import { beforeAll, describe, expect, it } from 'vitest';
import { rejectionText } from '../../../src/edits/index.js';
import { buildPrompt } from '../../../src/loop/prompt.js';
import { lastRejectedIteration, stabilitySignal } from '../../../src/loop/signal.js';
import { loadEditCorpus, type EditCase } from '../../fixtures/edits/corpus.js';
import { runLadderOnHost } from '../../fixtures/edits/host-ladder.js';
import { iteration, makeState } from '../state/make-state.js';

const limits = {
  budget_chars: 48_000,
  tree_max_entries: 400,
  file_max_bytes: 16_000,
  output_head_lines: 2,
  output_tail_lines: 3,
  output_failure_lines: 40,
  output_max_failures: 5,
  map_chars: 6000,
};

/** The user message of the prompt after the iteration that refused `c`'s answer (with `finishReason`). */
async function nextPrompt(c: EditCase, finishReason: string | undefined): Promise<string> {
  const o = await runLadderOnHost({ ...c, finishReason });
  const i = o.interpretation;
  if (i.kind === 'diff' && o.outcome === 'applied') throw new Error(`${c.name} was applied`);
  const record =
    i.kind === 'unusable'
      ? iteration(1, 'unusable', { reason: i.reason })
      : iteration(1, 'rejected', {
          patch: 'a',
          reason: rejectionText(
            i.kind === 'diff' ? [...i.failures, ...(o.gate ? [o.gate] : [])] : [],
            o.messages.find((m) => m !== '') ?? null,
          ),
        });
  const state = makeState({ iterations: [record] });
  const rejected = lastRejectedIteration(state);
  const prompt = buildPrompt({
    directive: 'Fix it.',
    iteration: 2,
    maxIterations: 10,
    signal: stabilitySignal(state),
    diffSoFar: '',
    lastTest: null,
    lastRejection:
      rejected?.validation?.message !== undefined && i.kind === 'diff'
        ? { patch: i.patch, message: rejected.validation.message }
        : null,
    tree: [...c.before.keys()],
    context: { files: [], map: null, wholeRepository: false, sourceFiles: 0 },
    limits,
    maxDiffLines: 500,
  });
  return prompt.messages[1].content;
}

/** Case, what the next prompt must say, and what it must not. */
const REFUSALS: [string, RegExp, RegExp | null][] = [
  [
    'cut-a-patch-tag-mid-token',
    /Status: no usable diff last time: your answer stops in the middle of the line `elif call\.excinfo and isinstance\(call\.excinfo\.` in hunk @@ -6,6 \+6,6 @@ of skipping\.py inside its <patch> block, which was never closed, as if it was cut off at the token limit; nothing of it was applied\. Send a smaller change/,
    /patch rejected|not found/,
  ],
  ['cut-a-patch-tag-complete-hunk', /inside its <patch> block, which was never closed, as if it was cut off/, null],
  ['cut-a-bare-half-context-line', /`elif call\.exc` is only the start of line 11 of skipping\.py/, null],
  [
    'cut-b-overflow-half-line',
    /stops in hunk @@ -1,13 \+1,13 @@ of pkg\/report\.py .*as if it was cut off/,
    /changes nothing|no context/,
  ],
  ['cut-c-dangling-hunk-header', /stops in the hunk header "@@ -" of calc\.py, before any of its lines/, /no context/],
  ['cut-c-dangling-file-header', /stops right after the file header of util\.py, before any of its hunks/, null],
  [
    'stale-d-context-skips-line',
    /# Last rejected patch[\s\S]*line 9 of mod\.py stands between them[\s\S]*The closest region of mod\.py/,
    /already applied|cut off/,
  ],
  [
    'stale-e-added-line-nested',
    /line 9 of expand\.py stands between them[\s\S]*The closest region of expand\.py/,
    /already applied/,
  ],
  ['noop-context-only', /it changes nothing/, /already applied|not found/],
  ['already-exact-repeat', /it is already applied/, /changes nothing|not found/],
  ['refuse-dot-git-hook', /no usable diff last time: .*inside \.git/, null],
  ['refuse-symlink-mode', /no usable diff last time: .*symbolic links/, null],
  ['syntax-unclosed-call', /leaves a syntax error .* did not have/, /already applied|cut off/],
];

let corpus: Map<string, EditCase>;
beforeAll(async () => {
  corpus = new Map((await loadEditCorpus()).map((c) => [c.name, c]));
});

describe('the next prompt after a refused answer', () => {
  it.each(REFUSALS)('%s: names the real reason', async (name, says, never) => {
    const c = corpus.get(name)!;
    const text = await nextPrompt(c, c.finishReason);
    expect(text).toMatch(says);
    if (never !== null) expect(text).not.toMatch(never);
  });

  it('says the same about a cut-off answer whether the server sent no finish reason or "length"', async () => {
    for (const name of REFUSALS.map(([n]) => n).filter((n) => n.startsWith('cut-'))) {
      const c = corpus.get(name)!;
      const silent = await nextPrompt(c, undefined);
      const length = await nextPrompt(c, 'length');
      const where = (text: string): string =>
        /(?:stops|at the token limit) (.*?)(?:, as if it was cut off at the token limit)?; nothing of it/.exec(
          text,
        )?.[1] ?? '';
      expect(where(silent), name).not.toBe('');
      expect(where(length), name).toBe(where(silent));
      expect(length, name).toContain('your answer was cut off at the token limit');
    }
  });
});
