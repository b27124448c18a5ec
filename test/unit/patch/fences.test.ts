// Fences are recognised only as fences: a line in a hunk's body is diff content, whatever it holds.
import { describe, expect, it } from 'vitest';
import { findFencedBlocks } from '../../../src/patch/fences.js';

const RAW = [
  'The heading needs a blank line:',
  '',
  '--- a/docs/index.rst',
  '+++ b/docs/index.rst',
  '@@ -1,4 +1,5 @@',
  ' Usage',
  ' ~~~~~',
  '+',
  ' Install it::',
  ' ```',
  'Then run the tests:',
  '```bash',
  'make docs',
  '```',
].join('\n');

describe('findFencedBlocks', () => {
  it('a reST underline or a ``` line inside a raw diff hunk is diff content; the fence after the hunk is a fence', () => {
    const blocks = findFencedBlocks(RAW);
    expect(blocks.map((b) => ({ lang: b.lang, content: b.content, start: b.start }))).toEqual([
      { lang: 'bash', content: 'make docs\n', start: 11 },
    ]);
  });

  it('a hunk without counts runs while its lines are body lines', () => {
    const text = ['@@ ... @@', ' ~~~~~~', '-old', '+new', 'After it:', '~~~', 'x', '~~~'].join('\n');
    expect(findFencedBlocks(text).map((b) => [b.start, b.fence])).toEqual([[5, '~']]);
  });

  it('inside a ```diff block the body is content and the closing fence still closes it', () => {
    const text = ['```diff', '@@ -1,3 +1,3 @@', ' Title', ' ~~~~~', '-a', '+b', '```', 'done'].join('\n');
    const [b] = findFencedBlocks(text);
    expect(b).toMatchObject({ lang: 'diff', unclosed: false, start: 0, end: 7 });
    expect(b!.content).toContain(' ~~~~~\n');
  });

  it('a fence after a hunk whose counts are used up opens a block', () => {
    const text = ['@@ -1,1 +1,1 @@', '-a', '+b', '  ```python', 'x = 1', '  ```'].join('\n');
    expect(findFencedBlocks(text)).toMatchObject([{ lang: 'python', start: 3, unclosed: false }]);
  });
});
