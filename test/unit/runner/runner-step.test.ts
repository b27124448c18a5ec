// The runner's `step` op (one iteration in one exec), run on the host. Its leftover-kill is inert
// here (no HAMMER_SANDBOX marker), which is also what these tests rely on for safety.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxCommitId } from '../../../src/runner/index.js';
import { hostGit, makeWorkspace } from './run-host.js';

const FIX = `--- a/m.py
+++ b/m.py
@@ -1,2 +1,2 @@
 def f():
-    return 1
+    return 2
`;
const STALE = FIX.replace('-    return 1', '-    return 7');
const TEST = 'grep -q "return 2" m.py && echo tests-pass';

describe('runner step', () => {
  let ws: Awaited<ReturnType<typeof makeWorkspace>>;
  let base: string;
  beforeEach(async () => {
    ws = await makeWorkspace({ 'm.py': 'def f():\n    return 1\n' });
    base = ws.run('init').result!.commit!;
  });
  afterEach(async () => {
    await ws.cleanup();
  });

  it('checks, applies, commits and tests, printing stage lines before the test output', () => {
    const r = ws.run('step', base, 'reset', 'iter-01.patch', 'hammer: iteration 1 - update m.py', '30', TEST, '', FIX);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('HAMMER_STAGE checked 1');
    // the commit, read from the ref files (no git process): the one the tree makes on the base
    expect(lines[1]).toMatch(/^HAMMER_STAGE applied [0-9a-f]{40}$/);
    expect(lines[2]).toBe('tests-pass');
    expect(r.result).toMatchObject({ op: 'step', ok: true, exit: 0, applied: true, candidate: 1 });
    const commit = hostGit(ws.dir, 'rev-parse', 'HEAD').stdout.trim();
    expect(r.result?.commit).toBe(commit);
    expect(r.result?.tree).toBeUndefined();
    expect(lines[1]).toBe(`HAMMER_STAGE applied ${commit}`);
    const tree = hostGit(ws.dir, 'rev-parse', 'HEAD^{tree}').stdout.trim();
    expect(sandboxCommitId(tree, base, 'hammer: iteration 1 - update m.py')).toBe(commit);
    expect(hostGit(ws.dir, 'log', '-1', '--format=%s').stdout.trim()).toBe('hammer: iteration 1 - update m.py');
  });

  it('reads a detached HEAD as the commit; names the tree too, from git, when HEAD names no branch', () => {
    const bump = FIX.replace('-    return 1', '-    return 2').replace('+    return 2', '+    return 3');
    expect(hostGit(ws.dir, 'checkout', '-q', '--detach').status).toBe(0);
    const d = ws.run('step', base, 'reset', 'iter-01.patch', 'msg', '30', 'true', '', FIX);
    const detached = hostGit(ws.dir, 'rev-parse', 'HEAD').stdout.trim();
    expect(d.result).toMatchObject({ ok: true, applied: true, commit: detached });
    expect(d.result?.tree).toBeUndefined();
    // HEAD names a ref outside refs/heads/: the runner does not read that, git does
    expect(hostGit(ws.dir, 'symbolic-ref', 'HEAD', 'refs/tags/elsewhere').status).toBe(0);
    const r = ws.run('step', detached, 'reset', 'iter-02.patch', 'msg', '30', 'true', '', bump);
    const commit = hostGit(ws.dir, 'rev-parse', 'HEAD').stdout.trim();
    const tree = hostGit(ws.dir, 'rev-parse', 'HEAD^{tree}').stdout.trim();
    expect(r.stdout.split('\n')[1]).toBe(`HAMMER_STAGE applied ${commit} ${tree}`);
    expect(r.result).toMatchObject({ ok: true, applied: true, commit, tree });
    expect(sandboxCommitId(tree, detached, 'msg')).toBe(commit);
  });

  it("reports a refused patch with git's message and runs no test", () => {
    const r = ws.run('step', base, 'reset', 'iter-01.patch', 'msg', '30', 'echo ran > ran.txt', '', STALE);
    expect(r.status).toBe(1);
    expect(r.result).toMatchObject({ op: 'step', ok: false, exit: 1, applied: false });
    expect(r.stderr).toMatch(/patch does not apply/);
    expect(r.stdout).not.toContain('HAMMER_STAGE applied');
    expect(hostGit(ws.dir, 'rev-parse', 'HEAD').stdout.trim()).toBe(base);
  });

  it("passes the test command's exit code through after applying", () => {
    const r = ws.run('step', base, 'reset', 'iter-01.patch', 'msg', '30', 'exit 3', '', FIX);
    expect(r.status).toBe(3);
    expect(r.result).toMatchObject({ op: 'step', ok: false, exit: 3, applied: true });
  });

  it('resets to the named head first, dropping leftovers and a commit the host did not accept', async () => {
    const first = ws.run('step', base, 'reset', 'iter-01.patch', 'msg', '30', 'echo junk > junk.txt', '', FIX);
    expect(first.result?.applied).toBe(true);
    await writeFile(path.join(ws.dir, 'm.py'), 'scribbled by a test\n');
    // the host refused iteration 1, so iteration 2 starts again from the base
    const second = ws.run(
      'step',
      base,
      'reset',
      'iter-02.patch',
      'msg 2',
      '30',
      'ls junk.txt 2>/dev/null; true',
      '',
      FIX,
    );
    expect(second.result).toMatchObject({ applied: true, exit: 0 });
    expect(second.output).not.toContain('junk.txt');
    expect(hostGit(ws.dir, 'rev-parse', 'HEAD~1').stdout.trim()).toBe(base);
  });

  it('skips its reset when told the tree is clean at the head, and resets otherwise', async () => {
    // the host's own `reset <head>` ran last: no repository code since, so nothing to undo
    const reset = ws.run('reset', base);
    expect(reset.result).toMatchObject({ op: 'reset', ok: true, commit: base });
    const clean = ws.run('step', base, 'clean', 'iter-01.patch', 'msg', '30', TEST, '', FIX);
    expect(clean.result).toMatchObject({ applied: true, exit: 0 });
    // a step told "clean" trusts the host: a scribble left in between stays (so only the host's reset may precede it)
    await writeFile(path.join(ws.dir, 'junk.txt'), 'left\n');
    const dirty = ws.run('step', base, 'reset', 'iter-02.patch', 'msg', '30', 'ls junk.txt 2>/dev/null; true', '', FIX);
    expect(dirty.result).toMatchObject({ applied: true });
    expect(dirty.output).not.toContain('junk.txt');
    expect(ws.run('step', base, 'dirty', 'p', 'm', '30', 'true', '', FIX).status).toBe(2);
  });

  it('resets to a named commit, dropping what the tests left', async () => {
    const first = ws.run('step', base, 'reset', 'iter-01.patch', 'msg', '30', 'echo junk > junk.txt', '', FIX);
    await writeFile(path.join(ws.dir, 'm.py'), 'scribbled\n');
    const r = ws.run('reset', base);
    expect(r.result).toMatchObject({ op: 'reset', ok: true, commit: base });
    expect(hostGit(ws.dir, 'status', '--porcelain', '--ignored').stdout).toBe('');
    expect(first.result?.commit).not.toBe(base);
    expect(ws.run('reset', 'not-a-hash').status).toBe(2);
  });

  it('commits what the patch adds even where .gitignore would skip it (as the host applies it)', async () => {
    await writeFile(path.join(ws.dir, '.gitignore'), 'build/\n');
    const withIgnore = ws.run('commit', 'ignore build');
    const head = withIgnore.result!.commit!;
    const add = '--- /dev/null\n+++ b/build/keep.txt\n@@ -0,0 +1 @@\n+kept\n';
    const r = ws.run('step', head, 'reset', 'iter-01.patch', 'msg', '30', 'true', '', add);
    expect(r.result).toMatchObject({ applied: true });
    expect(hostGit(ws.dir, 'show', 'HEAD:build/keep.txt').stdout).toBe('kept\n');
  });

  it('resets between candidates, so one that failed half way leaves nothing for the next', async () => {
    // the first candidate changes m.py and adds n.py, where a directory the tests left blocks the write
    const both = `${FIX}--- /dev/null\n+++ b/n.py/x\n@@ -0,0 +1 @@\n+x\n`;
    await writeFile(path.join(ws.dir, 'n.py'), 'untracked file in the way\n');
    const r = ws.run('step', base, 'clean', 'iter-01.patch', 'msg', '30', TEST, '', both, '', FIX);
    expect(r.result).toMatchObject({ applied: true, candidate: 2 });
    expect(hostGit(ws.dir, 'show', '--stat', '--format=', 'HEAD').stdout).toContain('m.py');
    expect(hostGit(ws.dir, 'status', '--porcelain', '--ignored').stdout).toBe('');
  });

  it('refuses bad arguments', () => {
    expect(ws.run('step', 'not-a-hash', 'reset', 'p', 'm', '30', 'true', '', FIX).status).toBe(2);
    expect(ws.run('step', base, 'reset', '../evil', 'm', '30', 'true', '', FIX).status).toBe(2);
    expect(ws.run('step', base, 'reset', 'p', 'm', 'x', 'true', '', FIX).status).toBe(2);
    // a candidate without its patch, and no candidate at all
    expect(ws.run('step', base, 'reset', 'p', 'm', '30', 'true', '', FIX, '--recount').status).toBe(2);
    expect(ws.run('step', base, 'reset', 'p', 'm', '30', 'true').status).toBe(2);
  });

  it.each(['--reject', '--unsafe-paths', '--directory=/', '--recount --reject', '*', '-C1;touch x', '--include=*'])(
    'refuses the apply flags %j before changing anything, and never globs them',
    (flags) => {
      const r = ws.run('step', base, 'reset', 'p', 'm', '30', 'echo ran', '', STALE, flags, FIX);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/unsupported apply flag/);
      expect(r.stdout).not.toContain('ran');
      expect(hostGit(ws.dir, 'rev-parse', 'HEAD').stdout.trim()).toBe(base);
    },
  );

  it('tries the candidates in order and applies the first whose check passes, with its flags', () => {
    // counts that disagree with the body: refused as written, taken with --recount
    const miscounted = FIX.replace('@@ -1,2 +1,2 @@', '@@ -1,5 +1,5 @@');
    const r = ws.run(
      'step',
      base,
      'reset',
      'iter-01.patch',
      'msg',
      '30',
      TEST,
      '',
      STALE,
      '',
      miscounted,
      '--recount',
      miscounted,
      '',
      FIX,
    );
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('HAMMER_STAGE checked 3');
    expect(r.result).toMatchObject({ applied: true, candidate: 3 });
    expect(r.stderr).toMatch(
      /hammer-runner: check 1\n[^]*patch does not apply[^]*hammer-runner: check 2\n[^]*hammer-runner: check 3/,
    );
    expect(r.stderr).not.toContain('check 4');
    expect(hostGit(ws.dir, 'show', 'HEAD:m.py').stdout).toBe('def f():\n    return 2\n');
  });

  it("reports every candidate refused, each with git's message after its check line, and runs no test", () => {
    const r = ws.run(
      'step',
      base,
      'reset',
      'iter-01.patch',
      'msg',
      '30',
      'echo ran > ran.txt',
      '',
      STALE,
      '--recount --ignore-whitespace',
      STALE,
    );
    expect(r.status).toBe(1);
    expect(r.result).toMatchObject({ applied: false });
    expect(r.result?.candidate).toBeUndefined();
    expect(r.stderr.match(/hammer-runner: check \d/g)).toEqual(['hammer-runner: check 1', 'hammer-runner: check 2']);
    expect(hostGit(ws.dir, 'status', '--porcelain').stdout).toBe('');
  });
});
