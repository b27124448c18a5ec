import { describe, expect, it } from 'vitest';
import { pathsInTestOutput, selectContextFiles, type ContextTreeEntry } from '../../../src/loop/context.js';

const tree: ContextTreeEntry[] = [
  { path: 'calc.py', size: 300 },
  { path: 'src/app/models.py', size: 2000 },
  { path: 'src/app/views.py', size: 1500 },
  { path: 'tests/test_calc.py', size: 400 },
  { path: 'tests/test_views.py', size: 500 },
  { path: 'README.md', size: 100 },
  { path: 'a/utils.py', size: 100 },
  { path: 'x/util.py', size: 100 },
  { path: 'y/util.py', size: 100 },
  { path: 'big.json', size: 1_000_000 },
  { path: 'link.py', size: 11, kind: 'symlink' },
  { path: 'vendor/lib', size: 0, kind: 'submodule' },
];
const budget = { chars: 48_000, fileMaxBytes: 16_000 };

describe('pathsInTestOutput', () => {
  it('finds Python traceback files, with the workspace prefix stripped and outside paths left out', () => {
    const out =
      'Traceback (most recent call last):\n  File "/workspace/tests/test_calc.py", line 4, in test_add\n  File "/workspace/calc.py", line 2, in add\n  File "/usr/lib/python3/dist-packages/_pytest/x.py", line 9\n';
    expect(pathsInTestOutput(out)).toEqual(['tests/test_calc.py', 'calc.py']);
  });
  it('finds pytest node ids and path:line locations, in order of appearance, without duplicates', () => {
    const out =
      'FAILED tests/test_views.py::test_index - AssertionError\nsrc/app/views.py:12: in index\n    return render()\nE   assert 1 == 2\ntests/test_views.py:8: AssertionError\n  --> src/lib.rs:3:5\n    at main (/workspace/src/index.js:10:3)\n';
    expect(pathsInTestOutput(out)).toEqual(['tests/test_views.py', 'src/app/views.py', 'src/lib.rs', 'src/index.js']);
  });
  it('leaves out paths that climb out with ..', () => {
    expect(pathsInTestOutput('File "../../etc/passwd", line 1\n../x.py:3: boom')).toEqual([]);
  });
  it('honours another workdir', () => {
    expect(pathsInTestOutput('File "/src/repo/m.py", line 1', '/src/repo')).toEqual(['m.py']);
  });
});

describe('selectContextFiles', () => {
  it('picks files named in the directive, then in test output, then changed, each once', () => {
    const picked = selectContextFiles({
      directive: 'Fix `calc.py` and see src/app/models.py; README.md too.',
      testOutput: 'FAILED tests/test_calc.py::test_add\n  File "/workspace/calc.py", line 2\n',
      changedFiles: ['src/app/views.py', 'calc.py', 'deleted.py'],
      tree,
      budget,
    });
    expect(picked.map((p) => [p.path, p.reason])).toEqual([
      ['calc.py', 'directive'],
      ['src/app/models.py', 'directive'],
      ['README.md', 'directive'],
      ['tests/test_calc.py', 'test_output'],
      ['src/app/views.py', 'changed'],
    ]);
    expect(picked.every((p) => !p.truncated && p.readBytes === tree.find((e) => e.path === p.path)!.size)).toBe(true);
  });
  it('matches a base name only when it is unique, and a/ or ./ prefixed paths', () => {
    const picked = selectContextFiles({
      directive: 'models.py is wrong; util.py too; also ./tests/test_calc.py and b/calc.py',
      testOutput: '',
      changedFiles: [],
      tree,
      budget,
    });
    expect(picked.map((p) => p.path)).toEqual(['src/app/models.py', 'tests/test_calc.py', 'calc.py']);
  });
  it('never picks a path that is not in the tree, a symlink or a submodule', () => {
    const picked = selectContextFiles({
      directive: 'read /etc/passwd and link.py and vendor/lib',
      testOutput: 'File "/workspace/link.py", line 1',
      changedFiles: ['link.py', 'vendor/lib'],
      tree,
      budget,
    });
    expect(picked).toEqual([]);
  });
  it('truncates a file at fileMaxBytes', () => {
    const [big] = selectContextFiles({ directive: 'big.json', testOutput: '', changedFiles: [], tree, budget });
    expect(big).toEqual({ path: 'big.json', reason: 'directive', readBytes: 16_000, truncated: true });
  });
  it('stays within the budget, in priority order', () => {
    const picked = selectContextFiles({
      directive: 'src/app/models.py src/app/views.py calc.py',
      testOutput: '',
      changedFiles: [],
      tree,
      budget: { chars: 3000, fileMaxBytes: 16_000 },
    });
    const total = picked.reduce((s, p) => s + p.readBytes + 80, 0);
    expect(total).toBeLessThanOrEqual(3000);
    expect(picked[0]).toEqual({ path: 'src/app/models.py', reason: 'directive', readBytes: 2000, truncated: false });
    expect(picked[1]).toMatchObject({ path: 'src/app/views.py', truncated: true });
    expect(picked[1]!.readBytes).toBe(3000 - 2080 - 80);
  });
  it('leaves a file out rather than show a useless sliver of it', () => {
    const picked = selectContextFiles({
      directive: 'src/app/models.py calc.py',
      testOutput: '',
      changedFiles: [],
      tree,
      budget: { chars: 2200, fileMaxBytes: 16_000 },
    });
    expect(picked.map((p) => p.path)).toEqual(['src/app/models.py']);
  });
});
