// Extraction keeps explicit headers: a docstring underline inside a ``` block is a context line,
// a headerless block after an explicit one is more of that file, and no name is taken from inside
// another block; a hunk no header names makes the diff unusable rather than silently left out.
import { describe, expect, it } from 'vitest';
import { extractDiff } from '../../../src/patch/extract-diff.js';

// the docstring's context lines lost their leading space; the second hunk sits in a block of its own
const TWO_BLOCKS = `Here is the fix:

\`\`\`diff
--- a/requests/models.py
+++ b/requests/models.py
@@ -1,9 +1,10 @@
 # -*- coding: utf-8 -*-
 
 """
requests.models
~~~~~~~~~~~~~~~
 
 This module contains the primary objects that power Requests.
 """
 
+import json
 import datetime
\`\`\`

\`\`\`diff
@@ -14,2 +15,3 @@ class Request:
         self.a = 1
+        self.b = 2
         self.c = 3
\`\`\`
`;

describe('extractDiff and file headers', () => {
  it('keeps a docstring underline as context and takes a headerless block after an explicit one as the same file', () => {
    const r = extractDiff(TWO_BLOCKS);
    expect(r.kind).toBe('diff');
    if (r.kind !== 'diff') return;
    expect(r.files.map((f) => [f.oldPath, f.newPath, f.hunks.length])).toEqual([
      ['a/requests/models.py', 'b/requests/models.py', 1],
      ['a/requests/models.py', 'b/requests/models.py', 1],
    ]);
    expect(r.files[0]!.hunks[0]!.lines).toContain(' ~~~~~~~~~~~~~~~');
    expect(r.guessed).toEqual([]);
    expect(r.fixes).toEqual([
      'took the hunks of a diff block without file headers as more of requests/models.py, the file of the block before',
    ]);
  });

  it('never takes a name from inside an earlier diff block, and never leaves out a hunk no header names', () => {
    const answer = `\`\`\`diff\n--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1,1 @@\n+see helpers.py\n\`\`\`\n\n\`\`\`diff\n@@ -1 +1 @@\n-x\n+y\n\`\`\`\n`;
    expect(extractDiff(answer)).toEqual({
      kind: 'unusable',
      reason:
        'the hunk "@@ -1 +1 @@" has no file header before it, so its file is unknown and the diff is incomplete without it: put "--- a/<path>" and "+++ b/<path>" lines naming its file before it',
    });
  });
});
