// Explicit headers win: a file name guessed from the text never replaces one a header gave, is
// never taken from inside another diff block, and must name an existing file unless the hunks
// create one.
import { describe, expect, it } from 'vitest';
import { renderFailures } from '../../../src/edits/index.js';
import { interpretAnswer } from '../../../src/loop/interpret-answer.js';
import { extractDiff } from '../../../src/patch/extract-diff.js';

const MODELS = `# -*- coding: utf-8 -*-

"""
requests.models
~~~~~~~~~~~~~~~

This module contains the primary objects that power Requests.
"""

import datetime

class Request:
    def __init__(self):
        self.a = 1
        self.c = 3
`;

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

const read = async () => new Map([['requests/models.py', { kind: 'text' as const, content: MODELS }]]);

describe('explicit headers win over guessed names', () => {
  it('applies both hunks to the file the header named', async () => {
    const r = await interpretAnswer(TWO_BLOCKS, { maxDiffLines: 500 }, read);
    expect(r.kind === 'diff' && r.candidates.map((c) => c.rung)).toContain('relocated');
    const reloc = r.kind === 'diff' ? r.candidates.find((c) => c.rung === 'relocated')!.patch : '';
    expect(reloc).toContain('+import json\n');
    expect(reloc).toContain('+        self.b = 2\n');
    expect(reloc).not.toContain('requests.models ');
  });

  it('refuses a name guessed from the text that is not a file, without telling the model to create it', async () => {
    const answer =
      'In requests.models:\n\n```diff\n@@ -14,2 +14,3 @@\n         self.a = 1\n+        self.b = 2\n         self.c = 3\n```\n';
    const ext = extractDiff(answer);
    expect(ext.kind === 'diff' && ext.guessed).toEqual(['requests.models']);
    const r = await interpretAnswer(answer, { maxDiffLines: 500 }, read);
    expect(r.kind === 'diff' && r.candidates).toEqual([]);
    const text = r.kind === 'diff' ? renderFailures(r.failures) : '';
    expect(text).toMatch(/requests\.models, the name taken from the text before it, is not a file in the repository/);
    expect(text).not.toMatch(/create it/);
  });

  it('accepts a guessed name that is an existing file, or a new file the hunks create', async () => {
    const existing =
      'In `requests/models.py`:\n\n```diff\n@@ -14,2 +14,3 @@\n         self.a = 1\n+        self.b = 2\n         self.c = 3\n```\n';
    const a = await interpretAnswer(existing, { maxDiffLines: 500 }, read);
    expect(a.kind === 'diff' && a.candidates.length).toBeGreaterThan(0);
    const created = 'Create `requests/compat.py`:\n\n```diff\n@@ -0,0 +1,2 @@\n+import json\n+JSON = json\n```\n';
    const b = await interpretAnswer(created, { maxDiffLines: 500 }, read);
    expect(b.kind === 'diff' && b.candidates.map((c) => c.rung)).toContain('relocated');
  });
});
