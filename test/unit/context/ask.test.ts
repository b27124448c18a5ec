import { describe, expect, it } from 'vitest';
import {
  answerRequests,
  memorySource,
  parseAskRequests,
  repoPath,
  type ContextEntry,
} from '../../../src/context/index.js';

describe('parseAskRequests: the shapes models answer with', () => {
  it('reads the taught text form', () => {
    expect(
      parseAskRequests('I need more.\nREAD src/calc.py\nREAD src/big.py:120-180\nGREP def parse_header\n'),
    ).toEqual([
      { kind: 'read', path: 'src/calc.py', start: null, end: null },
      { kind: 'read', path: 'src/big.py', start: 120, end: 180 },
      { kind: 'search', query: 'def parse_header' },
    ]);
  });

  it("reads qwen3-coder's XML call in the content, with and without <tool_call>", () => {
    const bare =
      '<function=read_file>\n<parameter=path>\nsrc/calc.py\n</parameter>\n<parameter=start_line>\n3\n</parameter>\n<parameter=end_line>\n9\n</parameter>\n</function>\n</tool_call>';
    expect(parseAskRequests(bare)).toEqual([{ kind: 'read', path: 'src/calc.py', start: 3, end: 9 }]);
    const wrapped = `<tool_call>\n<function=search>\n<parameter=query>\nparse_header\n</parameter>\n</function>\n</tool_call>`;
    expect(parseAskRequests(wrapped)).toEqual([{ kind: 'search', query: 'parse_header' }]);
    // the closing tags cut off at the end of the answer
    expect(parseAskRequests('<function=read_file>\n<parameter=path>a.py')).toEqual([
      { kind: 'read', path: 'a.py', start: null, end: null },
    ]);
  });

  it('reads JSON calls: bare, fenced, OpenAI-shaped with string arguments, Hermes <tool_call>, lists', () => {
    expect(parseAskRequests('{"name": "read_file", "arguments": {"path": "a.py"}}')).toEqual([
      { kind: 'read', path: 'a.py', start: null, end: null },
    ]);
    expect(
      parseAskRequests(
        '```json\n{"type":"function","function":{"name":"read_file","arguments":"{\\"path\\":\\"b.go\\",\\"start_line\\":5,\\"end_line\\":8}"}}\n```',
      ),
    ).toEqual([{ kind: 'read', path: 'b.go', start: 5, end: 8 }]);
    expect(parseAskRequests('<tool_call>\n{"name": "search", "arguments": {"query": "Abs("}}\n</tool_call>')).toEqual([
      { kind: 'search', query: 'Abs(' },
    ]);
    expect(
      parseAskRequests(
        '[{"name":"read_file","parameters":{"file_path":"x.rs","lines":"1-4"}},{"name":"grep","arguments":{"pattern":"fn x"}}]',
      ),
    ).toEqual([
      { kind: 'read', path: 'x.rs', start: 1, end: 4 },
      { kind: 'search', query: 'fn x' },
    ]);
  });

  it('ignores diffs, prose, other tools and SEARCH/REPLACE markers', () => {
    expect(parseAskRequests('```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```')).toEqual([]);
    expect(parseAskRequests('I will read the file and then fix it.')).toEqual([]);
    expect(parseAskRequests('{"name": "run_shell", "arguments": {"cmd": "rm -rf /"}}')).toEqual([]);
    expect(parseAskRequests('x.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE')).toEqual([]);
  });
});

describe('answerRequests: from the tree, read-only and bounded', () => {
  const big = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n');
  const texts = new Map([
    ['src/calc.py', 'def add(a, b):\n    return a - b\n'],
    ['src/big.txt', big],
  ]);
  const tree: ContextEntry[] = [...texts].map(([path, t]) => ({ path, oid: path, size: t.length, kind: 'file' }));
  tree.push({ path: 'link.py', oid: 'l', size: 1, kind: 'symlink' });
  const source = memorySource(texts);

  it('shows a whole file, a range, and search hits', async () => {
    const [whole, range, search] = await answerRequests(
      [
        { kind: 'read', path: './src/calc.py', start: null, end: null },
        { kind: 'read', path: '/workspace/src/big.txt', start: 10, end: 12 },
        { kind: 'search', query: 'return a' },
      ],
      tree,
      source,
    );
    expect(whole).toMatchObject({
      outcome: 'shown',
      path: 'src/calc.py',
      start: 1,
      end: 2,
      text: 'def add(a, b):\n    return a - b',
    });
    expect(range).toMatchObject({
      outcome: 'shown',
      start: 10,
      end: 12,
      totalLines: 1000,
      text: 'line 10\nline 11\nline 12',
    });
    expect(search).toMatchObject({ outcome: 'shown', hits: 1, text: 'src/calc.py:2:     return a - b' });
  });

  it('refuses paths out of the tree, symlinks and .git; cuts long reads; stops at the request limit', async () => {
    const answers = await answerRequests(
      [
        { kind: 'read', path: '../etc/passwd', start: null, end: null },
        { kind: 'read', path: 'link.py', start: null, end: null },
        { kind: 'read', path: '.git/config', start: null, end: null },
        { kind: 'read', path: 'src/big.txt', start: null, end: null },
        { kind: 'search', query: 'nothing like this' },
      ],
      tree,
      source,
      { maxRequests: 4, maxChars: 24_000, maxLines: 100, maxHits: 5 },
    );
    expect(answers.map((a) => a.outcome)).toEqual(['refused', 'missing', 'refused', 'cut', 'over_limit']);
    expect(answers[3]).toMatchObject({ start: 1, end: 100 });
    expect(answers.every((a, i) => i === 3 || a.text === '')).toBe(true);
  });

  it('keeps the whole answer within its character budget', async () => {
    const answers = await answerRequests(
      [
        { kind: 'read', path: 'src/big.txt', start: null, end: null },
        { kind: 'read', path: 'src/big.txt', start: 500, end: null },
      ],
      tree,
      source,
      { maxRequests: 8, maxChars: 1000, maxLines: 400, maxHits: 5 },
    );
    expect(answers.reduce((n, a) => n + a.text.length, 0)).toBeLessThanOrEqual(1000);
  });

  it('normalises the paths models write', () => {
    expect(repoPath('./a/b.py')).toBe('a/b.py');
    expect(repoPath('/workspace/a.py')).toBe('a.py');
    expect(repoPath('/etc/passwd')).toBeNull();
    expect(repoPath('a/../../b')).toBeNull();
  });
});
