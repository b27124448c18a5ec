// The Python fixture the `run` integration tests share: a module with a bug, a pytest test that
// fails on it, a directive, and the scripted model answers (a fix, a diff that does not apply,
// diffs that apply but fix nothing).
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFixtureRepo, tempDir, type FixtureFile, type FixtureRepo } from './fixture-repo.js';

/** calc.py as committed: total() subtracts instead of adding (line 8). */
export const BUGGY_CALC = `"""Small arithmetic helpers."""


def total(items):
    """Return the sum of items."""
    result = 0
    for item in items:
        result -= item
    return result


def mean(items):
    """Return the arithmetic mean of items (0 for none)."""
    if not items:
        return 0
    return total(items) / len(items)
`;

/** The text of the failing assertion, as pytest prints it. */
export const ASSERTION_TEXT = 'total([1, 2, 3]) must be 6';

const TEST_CALC = `from calc import mean, total


def test_total():
    assert total([1, 2, 3]) == 6, "${ASSERTION_TEXT}"


def test_mean():
    assert mean([2, 4]) == 3


def test_mean_of_nothing():
    assert mean([]) == 0
`;

/** What the model is asked to do; it names calc.py, so the prompt carries that file. */
export const DIRECTIVE =
  'total() in calc.py returns the wrong sum. Fix it so that every test in test_calc.py passes; do not change the tests.\n';

/** The patch that fixes the bug. */
export const FIX_PATCH = `diff --git a/calc.py b/calc.py
--- a/calc.py
+++ b/calc.py
@@ -5,6 +5,6 @@ def total(items):
     """Return the sum of items."""
     result = 0
     for item in items:
-        result -= item
+        result += item
     return result
 
`;

/**
 * The fix with one wrong context line (\`result = 1\`) and correct hunk counts: well formed, so
 * it passes extraction and vetting; \`git apply --check\` rejects it as written, and the apply
 * ladder lands it by search/replace of its other lines (rung 5).
 */
export const WRONG_CONTEXT_PATCH = FIX_PATCH.replace('     result = 0\n', '     result = 1\n');

/**
 * A fix that cannot be placed: a wrong context line and a removed line (\`result -= items\`)
 * that is not in calc.py, so no rung of the ladder applies it (rejected, with feedback).
 */
export const UNPLACEABLE_PATCH = WRONG_CONTEXT_PATCH.replace('-        result -= item\n', '-        result -= items\n');

/** Applies to the base (and after NOOP_PATCH_B) but fixes nothing: a comment in mean(). */
export const NOOP_PATCH_A = `diff --git a/calc.py b/calc.py
--- a/calc.py
+++ b/calc.py
@@ -12,4 +12,5 @@ def mean(items):
 def mean(items):
     """Return the arithmetic mean of items (0 for none)."""
+    # hammer-noop-a: guard against an empty list
     if not items:
         return 0
`;

/** Applies to the base (and after NOOP_PATCH_A) but fixes nothing: a comment in total(). */
export const NOOP_PATCH_B = `diff --git a/calc.py b/calc.py
--- a/calc.py
+++ b/calc.py
@@ -4,3 +4,4 @@
 def total(items):
     """Return the sum of items."""
+    # hammer-noop-b: start from zero
     result = 0
`;

/** A model-style answer: a line of prose and the patch in a fenced diff block. */
export function answerWith(patch: string, prose = 'Here is the change:'): string {
  return `${prose}\n\n\`\`\`diff\n${patch}\`\`\`\n`;
}

/** A Python fixture repository plus its directive file (kept outside the repository). */
export interface PythonFixture {
  repo: FixtureRepo;
  /** Absolute path of the directive file. */
  directive: string;
  cleanup(): Promise<void>;
}

/** Create the fixture repo (branch main, one commit) and write the directive beside it. */
export async function createPythonFixture(extra: Record<string, FixtureFile> = {}): Promise<PythonFixture> {
  const repo = await createFixtureRepo({
    files: {
      'calc.py': BUGGY_CALC,
      'test_calc.py': TEST_CALC,
      'README.md': '# calc\n\n`python3 -m pytest -q` runs the tests.\n',
      ...extra,
    },
  });
  const dir = await tempDir('hb-directive-');
  const directive = join(dir, 'DIRECTIVE.md');
  await writeFile(directive, DIRECTIVE);
  return {
    repo,
    directive,
    cleanup: async () => {
      await repo.cleanup();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
