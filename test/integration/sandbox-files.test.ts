// The sandbox contract, files in and out, for every backend (sandbox-fixtures.ts): the repo copy
// keeps symlinks as links (never their host targets), skips FIFOs without hanging, strips setuid and
// maps ownership; files read back are regular, named as asked and size-capped.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHammerError } from '../../src/errors.js';
import type { Sandbox, SandboxEngine } from '../../src/sandbox/index.js';
import { contractBackends, testEngine, testSpec } from './sandbox-fixtures.js';

const { engine } = testEngine();
/** How many times the start sequence runs (HAMMER_START_ROUNDS, e.g. more against a real cluster). */
const START_ROUNDS = Number(process.env['HAMMER_START_ROUNDS'] ?? 10);
let sandbox: Sandbox;
let hostDir: string;
const secret = `host-secret-${randomBytes(8).toString('hex')}`;

const sh = async (script: string) => sandbox.exec(['bash', '-c', script], { timeoutMs: 30_000 });

beforeAll(async () => {
  hostDir = await mkdtemp(path.join(tmpdir(), 'hb-copyin-'));
  await writeFile(path.join(hostDir, 'outside-secret.txt'), secret);
  const repo = path.join(hostDir, 'repo');
  await mkdir(path.join(repo, 'src', 'deep'), { recursive: true });
  await writeFile(path.join(repo, 'README.md'), '# hello\n');
  await writeFile(path.join(repo, 'src', 'deep', 'code.py'), 'print("hi")\n');
  await symlink(path.join(hostDir, 'outside-secret.txt'), path.join(repo, 'leak'));
  await symlink('README.md', path.join(repo, 'readme-link'));
  execFileSync('mkfifo', [path.join(repo, 'pipe')]);
  await writeFile(path.join(repo, 'suid.sh'), '#!/bin/sh\necho hi\n');
  await chmod(path.join(repo, 'suid.sh'), 0o6755);
});
afterAll(async () => {
  await rm(hostDir, { recursive: true, force: true });
});

// one entry per backend; the resident and per-exec Docker modes copy files the same way
describe.each(contractBackends().filter((b) => !b.name.includes('one exec per command')))(
  'files on $name',
  (backend) => {
    let opened: SandboxEngine;
    beforeAll(async () => {
      opened = await backend.open();
      sandbox = await opened.create(await testSpec());
    });
    afterAll(async () => {
      await sandbox?.destroy();
      await backend.close();
    });

    describe('copyIn', () => {
      it('copies a directory without following symlinks, opening FIFOs or keeping setuid bits', async () => {
        const stats = await sandbox.copyIn({ kind: 'dir', path: path.join(hostDir, 'repo') });
        expect(stats).toEqual({
          files: 3,
          bytes: '# hello\n'.length + 'print("hi")\n'.length + '#!/bin/sh\necho hi\n'.length,
          skipped: 1,
        });
        const r = await sh(
          'cd /workspace && find . -printf "%y %U:%G %m %p\\n" | sort -k4; readlink leak; cat leak 2>&1; cat readme-link',
        );
        const lines = r.stdout.text.split('\n');
        expect(lines).toContain(`l 10001:10001 777 ./leak`);
        expect(lines).toContain('f 10001:10001 755 ./suid.sh');
        expect(lines).toContain('f 10001:10001 644 ./src/deep/code.py');
        expect(lines.some((l) => l.endsWith('./pipe'))).toBe(false);
        expect(lines).toContain(path.join(hostDir, 'outside-secret.txt'));
        expect(r.stdout.text).not.toContain(secret);
        expect(r.stdout.text).toContain('# hello');
      });

      it('re-packs a tar stream: our owner, no special files, no escaping names', async () => {
        const pack = tar.pack();
        pack.entry({ name: 'from-tar/a.txt', mode: 0o4755, uid: 0, gid: 0 }, 'A');
        pack.entry({ name: '../escape.txt', mode: 0o644 }, 'E');
        pack.entry({ name: 'from-tar/fifo', type: 'fifo', mode: 0o644 });
        pack.finalize();
        const stats = await sandbox.copyIn({ kind: 'tar', stream: Readable.from(pack) });
        expect(stats).toEqual({ files: 1, bytes: 1, skipped: 2 });
        const r = await sh('stat -c "%u %a" /workspace/from-tar/a.txt; ls /workspace/from-tar; ls / | grep -c escape');
        expect(r.stdout.text).toBe('10001 755\na.txt\n0\n');
      });
    });

    describe('start order', () => {
      // A run's start (src/loop/prepare.ts): create, warm (the resident runner starts in the
      // background), copy the repository in, run the first command. Nothing may copy into or run
      // in the sandbox until the resident is up: its start kills every process of the sandbox user.
      it(`create, warm, copy in, exec, ${START_ROUNDS} times: the copy always lands whole`, async () => {
        const repo = path.join(hostDir, 'start-order');
        await mkdir(path.join(repo, 'src'), { recursive: true });
        for (let i = 0; i < 64; i++) await writeFile(path.join(repo, 'src', `f${i}.txt`), `${i}\n`.repeat(2000));
        for (let round = 0; round < START_ROUNDS; round++) {
          const s = await opened.create(await testSpec());
          try {
            s.warm?.();
            const stats = await s.copyIn({ kind: 'dir', path: repo });
            expect(stats.files).toBe(64);
            const r = await s.exec(['sh', '-c', 'ls /workspace/src | wc -l'], { timeoutMs: 30_000 });
            expect(r.stdout.text.trim()).toBe('64');
          } finally {
            await s.destroy();
          }
        }
      }, 300_000);
    });

    describe('putFiles and readFile', () => {
      it('places files under a directory, creating it, and reads them back', async () => {
        await sandbox.putFiles('/workspace/.hammer/runner', [
          { path: 'run.sh', content: '#!/bin/sh\necho runner\n', mode: 0o755 },
          { path: 'data/x.json', content: Buffer.from('{"a":1}') },
        ]);
        const r = await sandbox.exec(['/workspace/.hammer/runner/run.sh'], { timeoutMs: 30_000 });
        expect(r.stdout.text).toBe('runner\n');
        expect((await sandbox.readFile('/workspace/.hammer/runner/data/x.json', { maxBytes: 100 })).toString()).toBe(
          '{"a":1}',
        );
      });

      it('refuses paths outside the workspace or with ..', async () => {
        for (const bad of ['/etc', '/workspace/../etc', 'relative']) {
          const err = await sandbox.putFiles(bad, [{ path: 'x', content: 'x' }]).catch((e: unknown) => e);
          expect(isHammerError(err)).toBe(true);
        }
        const err = await sandbox.putFiles('/workspace', [{ path: '../x', content: 'x' }]).catch((e: unknown) => e);
        expect(isHammerError(err)).toBe(true);
        const read = await sandbox.readFile('/workspace/../etc/passwd', { maxBytes: 10_000 }).catch((e: unknown) => e);
        expect(isHammerError(read)).toBe(true);
      });

      it('refuses symlinks, directories and files over the cap', async () => {
        await sh(
          'cd /workspace && ln -sf /etc/passwd passwd-link && mkdir -p adir && head -c 5000 /dev/zero > big.bin',
        );
        for (const [p, why] of [
          ['/workspace/passwd-link', /symlink/],
          ['/workspace/adir', /directory|more than one/],
          ['/workspace/big.bin', /cap/],
          ['/workspace/missing-file', /no such|not found|failed/i],
        ] as const) {
          const err = await sandbox.readFile(p, { maxBytes: 1000 }).catch((e: unknown) => e);
          expect(isHammerError(err, 'SANDBOX_BROKEN')).toBe(true);
          expect((err as Error).message).toMatch(why);
        }
      });
    });
  },
);

describe('workspace volume without a size cap', () => {
  it('is writable by the sandbox user when the image owns /workspace to it', async () => {
    const plain = await engine.create(await testSpec({}, { workspaceBytes: 0 }));
    try {
      const r = await plain.exec(['sh', '-c', 'echo x > /workspace/new && cat /workspace/new'], { timeoutMs: 30_000 });
      expect(r.stdout.text).toBe('x\n');
    } finally {
      await plain.destroy();
    }
  });

  it('an image without an owned /workspace is IMAGE_CONTRACT, and nothing is left behind', async () => {
    const spec = await testSpec({ image: 'hammer-box/base:trixie' }, { workspaceBytes: 0 });
    const err = await engine.create(spec).catch((e: unknown) => e);
    expect(isHammerError(err, 'IMAGE_CONTRACT')).toBe(true);
    const report = await engine.gc({ runIds: [spec.runId] });
    expect(report).toEqual({ containers: [], volumes: [], networks: [] });
  });
});
