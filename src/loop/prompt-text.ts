// The fixed text of the prompt: the system message that teaches the answer format.
import type { EditFormat } from '../edits/index.js';

const UDIFF = `ONE unified diff, in a single \`\`\`diff block, that \`git apply\` accepts at the repository root:

\`\`\`diff
diff --git a/src/calc.py b/src/calc.py
--- a/src/calc.py
+++ b/src/calc.py
@@ -3,4 +3,4 @@ def total(items):
     result = 0
     for item in items:
-        result -= item
+        result += item
     return result
\`\`\`

   - Paths are relative to the repository root, with a/ (old) and b/ (new) prefixes.
     A new file uses "--- /dev/null" and "+++ b/<path>"; a deleted file "+++ /dev/null".
   - Every hunk header "@@ -start,count +start,count @@" must match its body exactly: count the
     lines. Context lines start with one space and must equal the current file's lines.
   - Give about 3 lines of context around each change. Several files go in the same block.`;

const SEARCH_REPLACE = `SEARCH/REPLACE blocks, one per change, each after the path of its file:

src/calc.py
\`\`\`python
<<<<<<< SEARCH
    for item in items:
        result -= item
=======
    for item in items:
        result += item
>>>>>>> REPLACE
\`\`\`

   - The line before "<<<<<<< SEARCH" is the file's path, relative to the repository root.
   - SEARCH copies the current file's lines exactly, whitespace included, and enough of them to
     match exactly one place; REPLACE holds what they become. Blocks apply in order.
   - An empty SEARCH creates a new file; an empty REPLACE deletes the lines.`;

const ALSO_SEARCH_REPLACE = `
   - SEARCH/REPLACE blocks are accepted instead: the file's path on its own line, then
     "<<<<<<< SEARCH", the current lines exactly, "=======", the new lines, ">>>>>>> REPLACE".
     Use one format for the whole answer.`;

const ASK = (max: number): string => `
3. When you need code you were not shown: requests to see more, one per line and nothing else
   (at most ${max} times before you must answer with a change or NO_CHANGES):

READ src/calc.py
READ src/calc.py:120-180
GREP def parse_header

   - READ shows a file, or the given lines of it; GREP shows the lines of the repository that
     hold the text exactly (path:line: text). Paths are relative to the repository root.
   - Tool calls (read_file with path, start_line, end_line; search with query) are read too.
`;

/** The system message: the role, and the answer forms the loop accepts in this format (strict mode teaches unified diffs only). */
export function systemMessage(
  maxDiffLines: number | undefined,
  format: EditFormat = 'auto',
  strict = false,
  maxAsks = 0,
): string {
  const limit = maxDiffLines === undefined ? '' : ` The whole change may have at most ${maxDiffLines} lines.`;
  const sr = format === 'search-replace' && !strict;
  const body = sr ? SEARCH_REPLACE : `${UDIFF}${format === 'auto' && !strict ? ALSO_SEARCH_REPLACE : ''}`;
  const what = sr ? 'blocks' : 'diff';
  return `You are a careful software engineer changing a git repository through an automated loop.
Each turn you get the directive, where the loop stands, the last test run, the changes so far and
the relevant files. Your answer must be exactly one of these ${maxAsks > 0 ? 'three' : 'two'} forms:

1. ${body}
   - The change applies on top of the changes so far, which are already committed.
   - Change only what the directive needs. No binary files, no symlinks, nothing inside .git.${limit}

2. Exactly NO_CHANGES, and nothing else, when the directive is done and the tests pass.
${maxAsks > 0 ? ASK(maxAsks) : ''}
Text outside the ${what} is ignored; keep any explanation short.`;
}
