// The editor's file operations through the resident runner (Sandbox.workspaceFile), on every backend
// with a resident and under gVisor when the engine offers it: a file read back byte for byte with its
// mode, written (directories made, the mode set, the sandbox user the owner) and removed, in the
// sandbox itself; links anywhere on the path, directories, FIFOs and files over the cap refused as
// such, a malformed path refused, and nothing written through a link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHammerError } from '../../src/errors.js';
import type { Sandbox, SandboxEngine, WorkspaceFileOp, WorkspaceFileResult } from '../../src/sandbox/index.js';
import { contractBackends, testEngine, testSpec } from './sandbox-fixtures.js';

interface Case {
  name: string;
  open(): Promise<SandboxEngine>;
  close(): Promise<void>;
  runtime: string;
}

const gvisorOffered = async (): Promise<boolean> => {
  const info = (await testEngine().docker.info()) as { Runtimes?: Record<string, unknown> };
  const offered = Object.keys(info.Runtimes ?? {}).includes('runsc');
  // HAMMER_GVISOR=on (make test GVISOR=1): the engine must offer runsc
  if (process.env['HAMMER_GVISOR'] === 'on') expect(offered, "the engine offers runsc ('make gvisor')").toBe(true);
  return offered;
};

const cases: Case[] = [
  ...contractBackends()
    .filter((b) => b.resident)
    .map((b) => ({ name: b.name, open: () => b.open(), close: () => b.close(), runtime: '' })),
  ...(process.env['HAMMER_GVISOR'] === 'off'
    ? []
    : [
        {
          name: 'docker under gVisor (runsc)',
          open: () => Promise.resolve(testEngine({ resident: true }).engine),
          close: () => Promise.resolve(),
          runtime: 'runsc',
        },
      ]),
];

describe.each(cases)('workspace files on $name', (c) => {
  let sandbox: Sandbox | undefined;
  const sh = async (script: string): Promise<string> => {
    const r = await sandbox!.exec(['sh', '-c', script], { timeoutMs: 60_000, cwd: '/workspace' });
    expect(r.exitCode, r.stderr.text).toBe(0);
    return r.stdout.text;
  };
  const op = async (o: WorkspaceFileOp): Promise<WorkspaceFileResult> => {
    const r = await sandbox!.workspaceFile!(o);
    expect(r).not.toBeNull();
    return r!;
  };
  const read = (path: string, maxBytes = 1000): Promise<WorkspaceFileResult> => op({ op: 'read', path, maxBytes });

  beforeAll(async () => {
    if (c.runtime === 'runsc' && !(await gvisorOffered())) return;
    sandbox = await (await c.open()).create(await testSpec({}, { runtime: c.runtime }));
    await sh(
      'mkdir -p lib && printf "a\\nb\\n" > lib/a.txt && ln -s /etc etc && ln -s lib/a.txt alias.txt && ln -s lib linked && mkfifo pipe && head -c 5000 /dev/zero > big.bin',
    );
  }, 120_000);
  afterAll(async () => {
    await sandbox?.destroy();
    await c.close();
  });

  it('writes a file in new directories with its mode and owner, reads it back byte for byte, removes it', async (t) => {
    if (!sandbox) return t.skip();
    const content = Buffer.from([0x23, 0x21, 0, 0xff, 0x0a, 0x78]);
    expect(await op({ op: 'write', path: 'new/deep/run.sh', content, mode: 0o755 })).toEqual({ kind: 'done' });
    expect(await read('new/deep/run.sh')).toEqual({ kind: 'file', mode: 0o755, size: 6, content });
    // in the sandbox: a regular file of the sandbox user, nothing left beside it
    expect(await sh('find new -printf "%y %m %U %p\\n" | sort')).toBe(
      'd 755 10001 new\nd 755 10001 new/deep\nf 755 10001 new/deep/run.sh\n',
    );
    // replaced whole, the mode as given
    expect(await op({ op: 'write', path: 'new/deep/run.sh', content: Buffer.from('x\n'), mode: 0o644 })).toEqual({
      kind: 'done',
    });
    expect(await read('new/deep/run.sh')).toEqual({ kind: 'file', mode: 0o644, size: 2, content: Buffer.from('x\n') });
    expect(await op({ op: 'write', path: 'empty.txt', content: Buffer.alloc(0), mode: 0o600 })).toEqual({
      kind: 'done',
    });
    expect(await read('empty.txt')).toEqual({ kind: 'file', mode: 0o600, size: 0, content: Buffer.alloc(0) });
    expect(await op({ op: 'remove', path: 'new/deep/run.sh' })).toEqual({ kind: 'done' });
    expect(await op({ op: 'remove', path: 'new/deep/run.sh' })).toEqual({ kind: 'missing' });
    expect(await read('new/deep/run.sh')).toEqual({ kind: 'missing' });
  });

  it('answers what a path is without following links, and caps what it reads', async (t) => {
    if (!sandbox) return t.skip();
    expect(await read('lib/a.txt')).toEqual({ kind: 'file', mode: 0o644, size: 4, content: Buffer.from('a\nb\n') });
    expect(await read('big.bin')).toEqual({ kind: 'file', mode: 0o644, size: 5000, content: null });
    expect(await read('missing.txt')).toEqual({ kind: 'missing' });
    expect(await read('nowhere/missing.txt')).toEqual({ kind: 'missing' });
    expect(await read('lib/a.txt/x')).toEqual({ kind: 'blocked' });
    expect(await read('lib')).toEqual({ kind: 'other' });
    expect(await read('pipe')).toEqual({ kind: 'other' });
    for (const link of ['etc/passwd', 'alias.txt', 'linked/a.txt', 'etc'])
      expect(await read(link)).toEqual({ kind: 'link' });
  });

  it('writes and removes nothing through a link or over a directory', async (t) => {
    if (!sandbox) return t.skip();
    const content = Buffer.from('changed\n');
    expect(await op({ op: 'write', path: 'alias.txt', content, mode: 0o644 })).toEqual({ kind: 'link' });
    expect(await op({ op: 'write', path: 'linked/new.txt', content, mode: 0o644 })).toEqual({ kind: 'link' });
    expect(await op({ op: 'write', path: 'etc/hammer-test', content, mode: 0o644 })).toEqual({ kind: 'link' });
    expect(await op({ op: 'write', path: 'lib', content, mode: 0o644 })).toEqual({ kind: 'other' });
    expect(await op({ op: 'write', path: 'lib/a.txt/x', content, mode: 0o644 })).toEqual({ kind: 'blocked' });
    expect(await op({ op: 'remove', path: 'alias.txt' })).toEqual({ kind: 'link' });
    expect(await op({ op: 'remove', path: 'lib' })).toEqual({ kind: 'other' });
    expect(await sh('cat lib/a.txt; for f in lib/*; do echo "$f"; done; [ -L alias.txt ] && echo link')).toBe(
      'a\nb\nlib/a.txt\nlink\n',
    );
  });

  it('refuses a path with empty, "." or ".." components', async (t) => {
    if (!sandbox) return t.skip();
    for (const path of ['../etc/passwd', 'lib/../lib/a.txt', 'lib//a.txt', './lib/a.txt', '']) {
      const err = await sandbox.workspaceFile!({ op: 'read', path, maxBytes: 100 }).catch((e: unknown) => e);
      expect(isHammerError(err, 'INTERNAL'), path).toBe(true);
    }
    // the resident still serves commands
    expect(await sh('echo ok')).toBe('ok\n');
  });
});
