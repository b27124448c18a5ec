import { describe, expect, it } from 'vitest';
import { changedRanges, sharedPrefixLength } from '../../../src/context/index.js';
import { directiveRefs } from '../../../src/context/directive-refs.js';
import { buildRepositoryMap } from '../../../src/context/repo-map.js';
import { isSourcePath, isTestPath } from '../../../src/context/source-files.js';
import { indexTree } from '../../../src/context/tree-index.js';
import type { Definition } from '../../../src/syntax/index.js';
import { treeOf } from './support.js';

describe('directiveRefs', () => {
  const index = indexTree(treeOf({ 'src/calc.py': '', 'docs/x/util.py': '', 'y/util.py': '', 'README.md': '' }));
  it('finds paths exactly, as ./path, by a unique base name, and code-like names', () => {
    const r = directiveRefs(
      'Fix `parse_header` in ./src/calc.py (see calc.py, util.py); Stack.push and the parseDuration() helper, not the docs.',
      index,
    );
    expect(r.paths).toEqual(['src/calc.py']);
    expect(r.names).toEqual(['parse_header', 'push', 'parseDuration']);
  });
  it('finds a file and its lines by a link to the repository, whatever the ref, and reads quoted code apart', () => {
    const big = indexTree(treeOf({ 'big.js': '', 'src/lib/round.ts': '' }));
    const r = directiveRefs(
      'Rounding up loses the carry (https://github.com/MikeMcl/big.js/blob/v6.2.1/big.js#L224-L230, and ' +
        'https://gitlab.com/a/b/-/blob/feature/x/src/lib/round.ts): in round, after `xc.length = sd--` the loop ' +
        'never moves; see `Big.prototype.round`.',
      big,
    );
    expect(r.paths).toEqual(['big.js', 'src/lib/round.ts']);
    expect(r.lines).toEqual(
      new Map([
        ['big.js', [224, 230]],
        ['src/lib/round.ts', []],
      ]),
    );
    expect(r.quotes).toEqual(['xc.length = sd--']);
    expect(r.quoted).toEqual(['length', 'round']);
    expect(r.words).toContain('round');
    expect(r.words).not.toContain('github');
  });
  it('leaves plain prose alone', () => {
    expect(directiveRefs('Make the failing tests pass, please.', index)).toMatchObject({
      paths: [],
      names: [],
      quotes: [],
      quoted: [],
    });
  });
});

describe('buildRepositoryMap', () => {
  const d = (name: string, line: number, depth = 0): Definition => ({
    kind: depth ? 'method' : 'function',
    name,
    qualifiedName: name,
    startLine: line,
    endLine: line + 2,
    depth,
    signature: `def ${name}(x)`,
  });
  it('ranks files by how often the failing code refers to their definitions, within its budget', () => {
    const refs = new Map([['used', 3]]);
    const map = buildRepositoryMap(
      [
        { path: 'far.py', definitions: [d('other', 1)], distance: 1, references: refs },
        {
          path: 'near.py',
          definitions: [d('used', 10), d('inner', 12, 1), d('deep', 13, 2)],
          distance: 2,
          references: refs,
        },
      ],
      1000,
    );
    expect(map?.text).toBe('near.py:\n    10: def used(x)\n    12:   def inner(x)\nfar.py:\n     1: def other(x)');
    expect(map?.files.map((f) => f.path)).toEqual(['near.py', 'far.py']);
    expect(
      buildRepositoryMap([{ path: 'a.py', definitions: [d('x', 1)], distance: 1, references: refs }], 10),
    ).toBeNull();
  });
});

describe('sharedPrefixLength', () => {
  it('counts the characters two texts share from their start', () => {
    const long = 'x'.repeat(10_000);
    expect(sharedPrefixLength(`${long}abc`, `${long}abd`)).toBe(10_002);
    expect(sharedPrefixLength('abc', 'abc')).toBe(3);
    expect(sharedPrefixLength('', 'abc')).toBe(0);
  });
});

describe('changedRanges', () => {
  it("gives each changed file's new-side hunk ranges, and leaves deleted files out", () => {
    const diff =
      'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -10,3 +10,4 @@ def add\n a\n-b\n+c\n+d\n e\n' +
      'diff --git a/old.py b/old.py\ndeleted file mode 100644\n--- a/old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n';
    expect([...changedRanges(diff)]).toEqual([['calc.py', [{ start: 11, end: 12 }]]]);
    const removal = '--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,2 @@\n a\n-b\n c\n@@ -20,2 +19,3 @@\n d\n+e\n f\n';
    expect(changedRanges(removal).get('x.py')).toEqual([
      { start: 2, end: 2 },
      { start: 20, end: 20 },
    ]);
    expect(changedRanges('').size).toBe(0);
  });
});

describe('source and test paths', () => {
  it.each([
    ['src/a.py', true, false],
    ['tests/test_a.py', true, true],
    ['pkg/a_test.go', true, true],
    ['src/x.test.tsx', true, true],
    ['src/actions/x.test-d.ts', true, true],
    ['node_modules/x/index.js', false, false],
    ['pkg/node_modules/deep/x.js', false, false],
    ['.github/scripts/x.py', false, false],
    ['a/.venv/b/site.py', false, false],
    ['dist/app.min.js', false, false],
    ['Cargo.toml', true, false],
    ['README.md', false, false],
  ])('%s', (path, source, test) => {
    expect(isSourcePath(path)).toBe(source);
    expect(isTestPath(path) && source).toBe(test);
  });
});
