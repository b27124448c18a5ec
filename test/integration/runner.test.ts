// The runner inside the python toolchain image, as the sandbox runs it: uid 10001, no network,
// read-only root filesystem, the workspace on a volume, every op an exec of sh -c <script>.
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchPath, runnerArgv, splitRunnerOutput } from '../../src/runner/index.js';
import type { RunnerOp, RunnerResult } from '../../src/runner/index.js';
import { toolchainImage } from '../helpers/images.js';

const docker = new Docker();
const UID = 10001;

const FAILING_REPO = {
  'calc.py': 'def add(a, b):\n    return a - b\n',
  'test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
};
const FIX = `diff --git a/calc.py b/calc.py
--- a/calc.py
+++ b/calc.py
@@ -1,2 +1,2 @@
 def add(a, b):
-    return a - b
+    return a + b
`;
const STALE = FIX.replace('-    return a - b', '-    return a * b');

function tarOf(files: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) {
    pack.entry({ name, mode: 0o644, uid: UID, gid: UID, mtime: new Date(0) }, content);
  }
  pack.finalize();
  return (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of pack) if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  })();
}

interface OpRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  output: string;
  result: RunnerResult | undefined;
}

describe('runner in the python image', () => {
  let container: Docker.Container;
  const volume = `hammer-box-test-runner-${randomUUID().slice(0, 8)}`;

  async function op(name: RunnerOp, ...args: string[]): Promise<OpRun> {
    const exec = await container.exec({
      Cmd: runnerArgv(name, ...args),
      User: `${UID}:${UID}`,
      WorkingDir: '/workspace',
      Env: ['HOME=/tmp', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'LANG=C.UTF-8'],
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const o = new PassThrough().on('data', (c: Buffer) => out.push(c));
    const e = new PassThrough().on('data', (c: Buffer) => err.push(c));
    docker.modem.demuxStream(stream, o, e);
    await new Promise<void>((resolve, reject) => {
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    const info = await exec.inspect();
    const stdout = Buffer.concat(out).toString();
    const split = splitRunnerOutput(stdout);
    return { exitCode: info.ExitCode ?? -1, stdout, stderr: Buffer.concat(err).toString(), ...split };
  }

  async function putPatch(name: string, text: string): Promise<string> {
    const rel = patchPath(name);
    await container.putArchive(await tarOf({ [name]: text }), { path: `/workspace/.git/hammer` });
    return rel;
  }

  beforeAll(async () => {
    const image = await toolchainImage('python');
    await docker.createVolume({ Name: volume, Labels: { 'hammer-box.test': 'runner' } });
    container = await docker.createContainer({
      Image: image,
      Cmd: ['sleep', 'infinity'],
      User: `${UID}:${UID}`,
      WorkingDir: '/workspace',
      Labels: { 'hammer-box.test': 'runner' },
      HostConfig: {
        NetworkMode: 'none',
        ReadonlyRootfs: true,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        Init: true,
        Tmpfs: { '/tmp': 'rw,noexec,nosuid,size=64m' },
        Mounts: [{ Type: 'volume', Source: volume, Target: '/workspace' }],
      },
    });
    await container.start();
    await container.putArchive(await tarOf(FAILING_REPO), { path: '/workspace' });
  });

  afterAll(async () => {
    await container?.remove({ force: true }).catch(() => {});
    await docker
      .getVolume(volume)
      .remove()
      .catch(() => {});
  });

  it('carries a fix from base to passing tests', async () => {
    const init = await op('init');
    expect(init.stderr).toBe('');
    expect(init.result).toMatchObject({ op: 'init', ok: true, exit: 0 });
    expect(init.result?.tree).toMatch(/^[0-9a-f]{40}$/);

    const baseline = await op('test', '120', 'python3 -m pytest -q');
    expect(baseline.result).toEqual({ op: 'test', ok: false, exit: 1, settled: true });
    expect(baseline.exitCode).toBe(1);
    expect(baseline.output).toContain('1 failed');

    const stale = await op('apply-check', await putPatch('stale.diff', STALE));
    expect(stale.result).toEqual({ op: 'apply-check', ok: false, exit: 1 });
    expect(stale.stderr).toContain('patch does not apply');

    const fix = await putPatch('fix.diff', FIX);
    expect((await op('apply-check', fix)).result?.ok).toBe(true);
    expect((await op('apply', fix)).result?.ok).toBe(true);
    const commit = await op('commit', 'hammer: iteration 1 - fix add');
    expect(commit.result).toMatchObject({ op: 'commit', ok: true, exit: 0 });
    expect(commit.result?.tree).not.toBe(init.result?.tree);

    const tests = await op('test', '120', 'python3 -m pytest -q');
    expect(tests.result).toEqual({ op: 'test', ok: true, exit: 0, settled: true });
    expect(tests.exitCode).toBe(0);
    expect(tests.output).toContain('1 passed');

    const diff = await op('diff');
    expect(diff.result).toMatchObject({ ok: true, from: init.result?.commit, to: commit.result?.commit });
    expect(diff.output).toContain('+    return a + b');

    const tree = await op('tree');
    expect(tree.result?.tree).toBe(commit.result?.tree);
  });

  it('reset removes what tests leave behind, as uid 10001 on a read-only root', async () => {
    const leftovers = await op(
      'test',
      '60',
      'mkdir -p junk/locked && touch junk/locked/f && chmod 500 junk/locked && echo x > calc.py && id -u',
    );
    expect(leftovers.output.trim()).toBe(String(UID));
    expect((await op('status')).result).toMatchObject({ ok: true, clean: false });
    const reset = await op('reset');
    expect(reset.result?.ok).toBe(true);
    expect((await op('status')).result).toMatchObject({ ok: true, clean: true });
    const check = await op('test', '60', 'test ! -e junk && grep -q "a + b" calc.py');
    expect(check.result?.exit).toBe(0);
  });

  it('the test command runs programs from its TMPDIR (in the workspace) while /tmp stays noexec', async () => {
    const r = await op(
      'test',
      '60',
      'echo "$TMPDIR"; touch "$TMPDIR/left"; cp /bin/true "$TMPDIR/prog" && "$TMPDIR/prog" && echo ran-from-tmpdir; ' +
        'cp /bin/true /tmp/prog && { /tmp/prog 2>/dev/null && echo ran-from-tmp || echo tmp-noexec; }',
    );
    const lines = r.output.trim().split('\n');
    expect(lines).toEqual(['/workspace/.git/hammer-tmp', 'ran-from-tmpdir', 'tmp-noexec']);
    // nothing shows in the tree, and the next run starts with an empty directory
    expect((await op('status')).result).toMatchObject({ ok: true, clean: true });
    const next = await op(
      'test',
      '60',
      'ls -A "$TMPDIR" | wc -l; test -e /workspace/.git/hammer-tmp/left || echo gone',
    );
    expect(next.output.trim().split('\n')).toEqual(['0', 'gone']);
  });

  it('the test command cannot write outside the workspace and /tmp', async () => {
    const r = await op('test', '60', 'touch /usr/evil 2>/dev/null || echo denied');
    expect(r.output.trim()).toBe('denied');
  });
});
