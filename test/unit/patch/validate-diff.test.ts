import { describe, expect, it } from 'vitest';
import { parseGitHeader, toPatchFiles, validateDiff } from '../../../src/patch/validate-diff.js';
import { patchHash } from '../../../src/patch/patch-hash.js';

const opts = { maxDiffLines: 500 };
const modify = (path: string): string => `--- a/${path}\n+++ b/${path}\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n`;

function reasonOf(patch: string, max = 500): string {
  const r = validateDiff(patch, { maxDiffLines: max });
  if (r.ok) throw new Error('expected a rejection');
  return r.reason;
}

describe('validateDiff accepts', () => {
  it('a modification, reporting files, lines, counts and hash', () => {
    const p = modify('src/calc.py');
    expect(validateDiff(p, opts)).toEqual({
      ok: true,
      files: [{ oldPath: 'src/calc.py', newPath: 'src/calc.py', status: 'modified' }],
      lines: 6,
      added: 1,
      removed: 1,
      hash: patchHash(p),
    });
  });

  it('added, deleted, renamed, copied and mode-changed files', () => {
    const p = [
      'diff --git a/new.py b/new.py\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x = 1\n',
      'diff --git a/gone.py b/gone.py\ndeleted file mode 100644\n--- a/gone.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n',
      'diff --git a/a.py b/b.py\nsimilarity index 100%\nrename from a.py\nrename to b.py\n',
      'diff --git a/c.py b/d.py\nsimilarity index 100%\ncopy from c.py\ncopy to d.py\n',
      'diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n',
      'diff --git a/empty.txt b/empty.txt\nnew file mode 100644\nindex 0000000..e69de29\n',
    ].join('');
    const r = validateDiff(p, opts);
    expect(r.ok && r.files).toEqual([
      { oldPath: null, newPath: 'new.py', status: 'added' },
      { oldPath: 'gone.py', newPath: null, status: 'deleted' },
      { oldPath: 'a.py', newPath: 'b.py', status: 'renamed' },
      { oldPath: 'c.py', newPath: 'd.py', status: 'copied' },
      { oldPath: 'run.sh', newPath: 'run.sh', status: 'modified' },
      { oldPath: null, newPath: 'empty.txt', status: 'added' },
    ]);
    expect(r.ok && toPatchFiles(r.files)).toEqual([
      { path: 'new.py', status: 'added' },
      { path: 'gone.py', status: 'deleted' },
      { path: 'b.py', status: 'renamed', from: 'a.py' },
      { path: 'd.py', status: 'copied', from: 'c.py' },
      { path: 'run.sh', status: 'modified' },
      { path: 'empty.txt', status: 'added' },
    ]);
  });

  it('hunks without counts, blank context lines, and no-newline markers', () => {
    expect(validateDiff('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', opts).ok).toBe(true);
    expect(
      validateDiff(
        '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
        opts,
      ).ok,
    ).toBe(true);
  });

  it('quoted paths with spaces and unicode, and names containing spaces in the git header', () => {
    const p =
      'diff --git "a/my file\\303\\251.py" "b/my file\\303\\251.py"\n--- "a/my file\\303\\251.py"\n+++ "b/my file\\303\\251.py"\n@@ -1 +1 @@\n-a\n+b\n';
    const r = validateDiff(p, opts);
    expect(r.ok && r.files[0]!.newPath).toBe('my fileé.py');
    expect(
      validateDiff(
        'diff --git a/my file.py b/my file.py\n--- a/my file.py\t\n+++ b/my file.py\t\n@@ -1 +1 @@\n-a\n+b\n',
        opts,
      ).ok,
    ).toBe(true);
  });

  it('a patch of exactly maxDiffLines lines', () => {
    expect(validateDiff(modify('x'), { maxDiffLines: 6 }).ok).toBe(true);
  });
});

describe('validateDiff rejects, saying why', () => {
  it.each([
    ['an empty patch', '', /empty/],
    ['a blank patch', '\n\n  \n', /empty/],
    ['a file with no hunks', '--- a/x\n+++ b/x\n', /no @@ hunk header/],
    ['a git header with nothing else', 'diff --git a/x b/x\n', /no @@ hunk header/],
    [
      'prose mixed into the patch',
      `${modify('x')}Hope this helps!\n`,
      /line 7 is not part of a unified diff: "Hope this helps!"/,
    ],
    [
      'a GIT binary patch',
      'diff --git a/i.png b/i.png\nindex 1..2 100644\nGIT binary patch\nliteral 5\nMcmZ?wbhEHbP\n\nliteral 0\nKcmV+b0RR6000031\n',
      /binary/,
    ],
    [
      '"Binary files ... differ"',
      'diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n',
      /binary/,
    ],
    ['a bare "Binary files ... differ"', 'Binary files a/i.png and b/i.png differ\n', /binary/],
    ['an absolute path', '--- a//etc/passwd\n+++ b//etc/passwd\n@@ -1 +1 @@\n-a\n+b\n', /absolute|not a normal path/],
    [
      'an absolute path without prefix',
      '--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n',
      /must start with a\//,
    ],
    ['a .. segment', modify('src/../../outside.txt'), /leaves the repository/],
    ['a .. at the start', modify('../outside.txt'), /leaves the repository/],
    ['a path inside .git', modify('.git/config'), /inside \.git/],
    ['a nested .GIT', modify('sub/.GIT/hooks/pre-commit'), /inside \.git/],
    ['an NTFS .git alias', modify('.git./config'), /inside \.git/],
    ['a git~1 short name', modify('GIT~1/config'), /inside \.git/],
    [
      'a control character in a path',
      'diff --git "a/x\\033[31m.py" "b/x\\033[31m.py"\n--- "a/x\\033[31m.py"\n+++ "b/x\\033[31m.py"\n@@ -1 +1 @@\n-a\n+b\n',
      /control/,
    ],
    ['a newline in a quoted path', '--- "a/x\\ny"\n+++ "b/x\\ny"\n@@ -1 +1 @@\n-a\n+b\n', /control/],
    ['a right-to-left override in a path', modify('evil\u202egnp.py'), /invisible/],
    ['a backslash in a path', modify('src\\..\\x.py'), /backslash/],
    ['a Windows drive path', modify('C:/x.py'), /absolute/],
    [
      'a rename into .git',
      'diff --git a/x b/.git/hooks/post-checkout\nsimilarity index 100%\nrename from x\nrename to .git/hooks/post-checkout\n',
      /inside \.git/,
    ],
    [
      'a rename out of the repo',
      'diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to ../y\n',
      /leaves the repository/,
    ],
    [
      'a git header pointing into .git',
      'diff --git a/.git/config b/.git/config\nold mode 100644\nnew mode 100755\n',
      /inside \.git/,
    ],
    [
      'a symlink',
      'diff --git a/link b/link\nnew file mode 120000\n--- /dev/null\n+++ b/link\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n',
      /symbolic links/,
    ],
    [
      'a symlink by index mode',
      'diff --git a/link b/link\nindex 1..2 120000\n--- a/link\n+++ b/link\n@@ -1 +1 @@\n-a\n+/etc\n',
      /symbolic links/,
    ],
    [
      'a submodule',
      'diff --git a/lib b/lib\nnew file mode 160000\n--- /dev/null\n+++ b/lib\n@@ -0,0 +1 @@\n+Subproject commit 1234567890123456789012345678901234567890\n',
      /submodules/,
    ],
    ['a mode change to a symlink', 'diff --git a/x b/x\nold mode 100644\nnew mode 120000\n', /symbolic links/],
    ['an odd mode', 'diff --git a/x b/x\nold mode 100644\nnew mode 100777\n', /mode 100777/],
    [
      'hunk counts that do not match the body',
      '--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b\n+c\n',
      /hunk 1 \(@@ -1,1 \+1,1 @@\) says 1 old and 1 new lines, but its body has 1 old and 2 new/,
    ],
    ['a hunk body that ends early', '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n', /body has 2 old and 2 new/],
    ['both sides /dev/null', '--- /dev/null\n+++ /dev/null\n@@ -0,0 +0,0 @@\n', /both sides/],
    ['paths without a/ b/ prefixes', '--- x.py\n+++ x.py\n@@ -1 +1 @@\n-a\n+b\n', /must start with a\//],
    ['a mangled git header', 'diff --git x.py\nold mode 100644\nnew mode 100755\n', /cannot read the paths/],
    [
      'a +++ name that extends the --- name (git would write the --- file)',
      '--- a/.gitlab-ci.yml\n+++ b/.gitlab-ci.yml.txt\n@@ -1 +1 @@\n-a\n+b\n',
      /the --- and \+\+\+ lines name different files \(".gitlab-ci.yml" and ".gitlab-ci.yml.txt"\)/,
    ],
    [
      'two different names on a modification',
      'diff --git a/package.json b/package.json\n--- a/package.json\n+++ b/notes.json\n@@ -1 +1 @@\n-a\n+b\n',
      /two different new files/,
    ],
    [
      'a --- name other than the git header names',
      'diff --git a/a.py b/a.py\n--- a/.gitmodules\n+++ b/a.py\n@@ -1 +1 @@\n-a\n+b\n',
      /two different old files/,
    ],
    [
      'a rename whose --- line names another file',
      'diff --git a/x b/y\nrename from x\nrename to y\n--- a/.gitattributes\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n',
      /two different old files/,
    ],
    [
      'a git header naming two files with no rename',
      'diff --git a/x b/y\nold mode 100644\nnew mode 100755\n',
      /without "rename from"/,
    ],
  ])('%s', (_name, patch, reason) => {
    expect(reasonOf(patch)).toMatch(reason);
  });

  it('a patch over maxDiffLines, saying the count and the limit', () => {
    expect(reasonOf(modify('x'), 5)).toBe('the diff has 6 lines, over the limit of 5: make a smaller change');
  });

  it('a 10 MB patch quickly, on its size', () => {
    const huge = `--- a/x\n+++ b/x\n@@ -0,0 +1,1000000 @@\n${'+0123456789\n'.repeat(1_000_000)}`;
    expect(reasonOf(huge)).toMatch(/over the limit of 500/);
  });
});

describe('parseGitHeader', () => {
  it.each([
    ['diff --git a/x.py b/x.py', { old: 'x.py', new: 'x.py' }],
    ['diff --git a/a b c b/a b c', { old: 'a b c', new: 'a b c' }],
    ['diff --git a/old name b/new', { old: 'old name', new: 'new' }],
    ['diff --git "a/q\\"x" b/y', { old: 'q"x', new: 'y' }],
    ['diff --git a/y "b/q\\tx"', { old: 'y', new: 'q\tx' }],
    ['diff --git x y', null],
  ])('%s', (line, expected) => {
    expect(parseGitHeader(line)).toEqual(expected);
  });
});

describe('patchHash', () => {
  it('is the sha256 of the normalised patch', () => {
    expect(patchHash('a\n')).toBe('87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7');
  });
  it('ignores CRLF, trailing whitespace at line ends and trailing blank lines', () => {
    const p = modify('x');
    expect(patchHash(p.replace(/\n/g, '\r\n'))).toBe(patchHash(p));
    expect(patchHash(p.replace(/\n/g, '  \t\n'))).toBe(patchHash(p));
    expect(patchHash(`${p}\n\n`)).toBe(patchHash(p));
    expect(patchHash(p.trimEnd())).toBe(patchHash(p));
  });
  it('differs for any other difference', () => {
    const p = modify('x');
    expect(patchHash(p.replace('+new', '+New'))).not.toBe(patchHash(p));
    expect(patchHash(p.replace('+new', '+ new'))).not.toBe(patchHash(p));
  });
});
