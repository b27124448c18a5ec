import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ShownFile } from '../../../src/context/index.js';
import { buildPrompt, renderPromptArtifact, type PromptInput } from '../../../src/loop/prompt.js';
import { toTestRecord } from '../../../src/loop/test-record.js';
import { testRecord } from '../state/make-state.js';

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

/** A file shown whole (or as the given ranges). */
function shown(path: string, text: string, extra: Partial<ShownFile> = {}): ShownFile {
  const lines = text.replace(/\n$/, '').split('\n').length;
  return {
    path,
    reason: 'directive',
    detail: '',
    whole: true,
    ranges: [{ start: 1, end: lines }],
    totalLines: lines,
    text,
    stableText: extra.text ?? text,
    focusParts: [],
    changed: false,
    test: false,
    ...extra,
  };
}

function context(files: ShownFile[], extra: Partial<PromptInput['context']> = {}): PromptInput['context'] {
  return { files, map: null, wholeRepository: false, sourceFiles: files.length, ...extra };
}

function input(extra: Partial<PromptInput> = {}): PromptInput {
  return {
    directive: 'Fix add() in calc.py.',
    iteration: 2,
    maxIterations: 10,
    signal: 'last patch applied, tests still failing (exit 1)',
    diffSoFar: '',
    lastTest: testRecord(1),
    lastRejection: null,
    tree: ['tests/test_calc.py', 'calc.py'],
    context: context([shown('calc.py', 'def add(a, b):\n    return a - b\n')]),
    limits,
    maxDiffLines: 500,
    ...extra,
  };
}

describe('buildPrompt', () => {
  it('teaches the answer format in the system message', () => {
    const { messages } = buildPrompt(input());
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('```diff');
    expect(messages[0].content).toContain('a/ (old) and b/ (new)');
    expect(messages[0].content).toContain('Exactly NO_CHANGES');
    expect(messages[0].content).toContain('at most 500 lines');
  });

  it('holds the directive, iteration, signal, test run, tree and files in the user message', () => {
    const p = buildPrompt(input());
    const user = p.messages[1].content;
    expect(p.messages[1].role).toBe('user');
    expect(user).toContain('# Directive\n\nFix add() in calc.py.');
    expect(user).toContain('Iteration 2 of 10. Status: last patch applied, tests still failing (exit 1).');
    expect(user).toContain('Command: `python3 -m pytest -q`\nResult: failed (exit 1)');
    expect(user).toContain('FAILED tests/test_calc.py::test_add');
    expect(user).toContain('None yet: the repository is at the base commit.');
    expect(user).toContain('# Files in the repository (2)\n\n```\ncalc.py\ntests/test_calc.py\n```');
    expect(user).toContain('## calc.py (named in the directive)\n\n```\ndef add(a, b):\n    return a - b\n```');
    expect(p.chars).toBe(p.messages[0].content.length + user.length);
  });

  it("shows the diff so far and the last rejected patch with git's exact message", () => {
    const user = buildPrompt(
      input({
        diffSoFar: '--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-a\n+b\n',
        lastRejection: {
          patch: '--- a/x\n+++ b/x\n@@ -9 +9 @@\n-q\n+r\n',
          message: 'error: patch failed: x:9\nerror: x: patch does not apply\n',
        },
      }),
    ).messages[1].content;
    expect(user).toContain(
      '# Changes so far (diff against the base commit, already committed)\n\n```diff\n--- a/calc.py',
    );
    expect(user).toContain('```\nerror: patch failed: x:9\nerror: x: patch does not apply\n```');
    expect(user).toContain('The rejected patch was:\n\n```diff\n--- a/x\n+++ b/x\n@@ -9 +9 @@');
  });

  it('shows the test output as the record holds it, cut once (never cut again)', () => {
    const out = Array.from({ length: 200 }, (_, k) => `line ${k + 1}`).join('\n');
    const user = buildPrompt(input({ lastTest: testRecord(1, { stdout_tail: out }) })).messages[1].content;
    expect(user).toContain(out);
    expect(user).not.toContain('omitted');
  });

  it('keeps a failure in the middle of long TAP output, with true counts in the markers', () => {
    const tap = readFileSync(path.join(import.meta.dirname, '../../fixtures/test-output/node-20-tap-long.txt'), 'utf8');
    const record = toTestRecord(
      {
        exitCode: 1,
        stdout: { text: tap, totalBytes: tap.length, droppedBytes: 0 },
        stderr: { text: '', totalBytes: 0, droppedBytes: 0 },
        durationMs: 9,
        timedOut: false,
      },
      { command: 'node --test', artifact: null, headLines: 40, tailLines: 80, failureLines: 40, maxFailures: 5 },
    );
    const user = buildPrompt(input({ lastTest: record })).messages[1].content;
    expect(user).toContain(
      "not ok 8 - parses row 8\n  ---\n  duration_ms: 20.522331\n  location: '/tmp/fnd-cap/node-long/test/rows.test.js:7:3'",
    );
    expect(user).toContain('[... 66 lines omitted ...]\n# Subtest: parses row 8');
    expect(user).toContain('[... 239 lines omitted ...]');
    expect(user).not.toMatch(/\[\.\.\. 1 lines? omitted/);
    expect(user).toContain('Failing tests (1):\n- parses row 8 (/tmp/fnd-cap/node-long/test/rows.test.js:7)');
    expect(user).toContain('Counts (node): 1 failed, 69 passed');
  });

  it('lists the failing tests with their packages, and counts those past the first 20', () => {
    const failing = Array.from({ length: 23 }, (_, k) => ({
      runner: 'go' as const,
      scope: 'test' as const,
      id: `TestCase${k}`,
      name: `TestCase${k}`,
      package: 'example.com/shop/stack',
      file: 'stack_test.go',
      line: k + 1,
    }));
    const lastTest = testRecord(1, { parsed: { runners: ['go'], failing, counts: [] } });
    const user = buildPrompt(input({ lastTest })).messages[1].content;
    expect(user).toContain('Failing tests (23):\n- TestCase0 in example.com/shop/stack (stack_test.go:1)\n');
    expect(user).toContain('- TestCase19 in example.com/shop/stack (stack_test.go:20)\n- … and 3 more');
    expect(user).not.toContain('TestCase20 ');
  });

  it('says when the tests have not run, and when they timed out', () => {
    expect(buildPrompt(input({ lastTest: null })).messages[1].content).toContain('The tests have not run yet.');
    expect(
      buildPrompt(input({ lastTest: testRecord(137, { timed_out: true, duration_ms: 300_000 }) })).messages[1].content,
    ).toContain('failed (timed out after 300 s)');
  });

  it('strips escape sequences and control characters from everything that came from outside', () => {
    const evil = '\u001b[2J\u001b]0;pwned\u0007red\u001b[31m\u0000\u0008text';
    const p = buildPrompt(
      input({
        directive: `do ${evil}`,
        lastTest: testRecord(1, { stdout_tail: evil, stderr_tail: evil }),
        lastRejection: { patch: evil, message: evil },
        diffSoFar: evil,
        tree: [`x${evil}.py`],
        context: context([shown(`calc${evil}.py`, evil, { detail: evil, changed: true })], {
          map: { text: evil, files: [] },
        }),
      }),
    );
    const all = p.messages.map((m) => m.content).join('\n');
    expect(all).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(all).toContain('redtext');
  });

  it('bounds the tree and says how many entries were left out', () => {
    const tree = Array.from({ length: 10 }, (_, k) => `f${k}.py`);
    const user = buildPrompt(input({ tree, limits: { ...limits, tree_max_entries: 3 } })).messages[1].content;
    expect(user).toContain('# Files in the repository (10)\n\n```\nf0.py\nf1.py\nf2.py\n... and 7 more files\n```');
  });

  it('shows a file whole or as regions with their markers, in a fence the content cannot close', () => {
    const regions = '[lines 3-4]\nx = """\n```\n[... lines 5-9 not shown ...]';
    const user = buildPrompt(
      input({
        context: context([
          shown('doc.py', regions, {
            whole: false,
            ranges: [{ start: 3, end: 4 }],
            totalLines: 9,
            reason: 'failure',
            detail: 'line 4 in the failure',
          }),
        ]),
      }),
    ).messages[1].content;
    expect(user).toContain('"[lines A-B]" starts a region at line A');
    expect(user).toContain(`## doc.py (line 4 in the failure; regions)\n\n\`\`\`\`\n${regions}\n\`\`\`\``);
  });

  it('says when a small repository is shown whole, and shows the repository map', () => {
    const user = buildPrompt(
      input({
        context: context([shown('calc.py', 'x = 1\n')], {
          wholeRepository: true,
          sourceFiles: 1,
          map: { text: 'util.py:\n     3: def helper(x)', files: [{ path: 'util.py', definitions: 1, chars: 30 }] },
        }),
      }),
    ).messages[1].content;
    expect(user).toContain('The repository is small: all 1 source files are shown whole.');
    expect(user).toContain('# Repository map\n\n');
    expect(user).toContain('util.py:\n     3: def helper(x)');
  });

  it('puts what stays the same first and what changes last', () => {
    const user = buildPrompt(
      input({
        diffSoFar: '--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-a\n+b\n',
        lastRejection: { patch: 'x', message: 'no' },
        context: context(
          [
            shown('calc.py', 'def add(a, b):\n    return a + b\n', {
              stableText: '[... add: shown below, in "Code in focus" ...]\n',
              focusParts: [{ label: 'add', start: 1, end: 2, changed: true, text: 'def add(a, b):\n    return a + b' }],
              changed: true,
            }),
          ],
          { map: { text: 'm.py:\n  1: def m()', files: [] } },
        ),
      }),
    ).messages[1].content;
    const order = [
      '# Directive',
      '# Files in the repository',
      '# Repository map',
      '# Relevant files',
      '[... add: shown below, in "Code in focus" ...]',
      '# Last test run',
      '# Changes so far',
      '# Code in focus, as it is now',
      '## calc.py: add (lines 1-2, changed so far)\n\n```\ndef add(a, b):\n    return a + b\n```',
      '# Iteration',
      '# Last rejected patch',
    ].map((h) => user.indexOf(h));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('shows tests first, then code from the least to the most relevant', () => {
    const files = [
      shown('tests/test_a.py', 'a\n', { test: true, reason: 'failure' }),
      shown('a.py', 'a\n', { reason: 'import' }),
      shown('b.py', 'b\n', { reason: 'import', changed: true }),
      shown('c.py', 'c\n', { reason: 'import' }),
    ];
    const user = buildPrompt(input({ context: context(files) })).messages[1].content;
    const at = ['## tests/test_a.py', '## c.py', '## b.py', '## a.py'].map((h) => user.indexOf(h));
    expect(at.every((x) => x >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('caps a huge diff so far in the middle', () => {
    const diff = `--- a/x\n+++ b/x\n@@ -1,1 +1,50000 @@\n${'+line\n'.repeat(50_000)}`;
    const user = buildPrompt(input({ diffSoFar: diff, limits: { ...limits, budget_chars: 3000 } })).messages[1].content;
    expect(user).toMatch(/\[\.\.\. \d+ characters omitted \.\.\.\]/);
    expect(user.length).toBeLessThan(5000);
  });

  it('is a pure function of its input', () => {
    expect(buildPrompt(input())).toEqual(buildPrompt(input()));
  });

  it('renders as one markdown artifact', () => {
    const art = renderPromptArtifact(buildPrompt(input()));
    expect(art).toMatch(/^<!-- system -->\n\nYou are/);
    expect(art).toContain('<!-- user -->\n\n# Directive');
  });
});
