// The batch directory: refused when it holds something else, locked while a batch works in it, and
// attempt records trusted only under the user's state key.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../../src/batch/attempt-record.js';
import { BatchDir } from '../../../src/batch/batch-dir.js';
import { stateKeyFromSecret } from '../../../src/state/state-key.js';
import { TEST_STATE_KEY } from '../../helpers/state-key.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hb-batchdir-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const record = (attempt: number): AttemptRecord => ({
  schema_version: 1,
  task_id: 't',
  attempt,
  sample: 1,
  replaces: null,
  task_hash: 'a'.repeat(64),
  commit: null,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: null,
  status: null,
  wall_ms: null,
  run: null,
  error: null,
  owner: { pid: 1, host: 'h' },
});

describe('BatchDir.open', () => {
  it('refuses a batch directory to resume that holds a link, and a link on the way to it; nothing is written through them', async () => {
    const host = await mkdtemp(join(tmpdir(), 'hb-batchdir-host-'));
    try {
      const out = join(root, 'results');
      await mkdir(out);
      await symlink(host, join(out, 'tasks'));
      await expect(BatchDir.open(out, TEST_STATE_KEY, true, [root])).rejects.toThrow(/holds a symlink, .*tasks/);
      await symlink(host, join(root, 'linked'));
      await expect(BatchDir.open(join(root, 'linked', 'out'), TEST_STATE_KEY, false, [root])).rejects.toThrow(
        /linked is a symlink/,
      );
      expect(await readdir(host)).toEqual([]);
      // control: a plain batch directory opens, and its attempts are made level by level
      const plain = join(root, 'plain');
      const dir = await BatchDir.open(plain, TEST_STATE_KEY, false, [root]);
      await symlink(host, join(plain, 'tasks'));
      await expect(dir.makeAttempt('t', 1)).rejects.toThrow(/tasks is a symlink/);
      await rm(join(plain, 'tasks'));
      expect(await dir.makeAttempt('t', 1)).toBe(join(plain, 'tasks', 't', 'attempt-1'));
      await dir.unlock();
      expect(await readdir(host)).toEqual([]);
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  });

  it('makes the directory and takes its lock; a second open while it is held is refused', async () => {
    const out = join(root, 'out');
    const dir = await BatchDir.open(out, TEST_STATE_KEY, false);
    expect(JSON.parse(await readFile(join(out, 'batch.lock'), 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    await expect(BatchDir.open(out, TEST_STATE_KEY, true)).rejects.toThrow(
      /another batch process \(pid \d+\) is working/,
    );
    await dir.unlock();
    await (await BatchDir.open(out, TEST_STATE_KEY, true)).unlock();
  });

  it('takes over the lock of a process that is gone', async () => {
    const dead = spawnSync('true').pid;
    await writeFile(join(root, 'batch.lock'), JSON.stringify({ pid: dead, host: hostname() }));
    const dir = await BatchDir.open(root, TEST_STATE_KEY, false);
    await dir.unlock();
  });

  it('refuses a directory with a batch unless resuming, and one with anything else always', async () => {
    await mkdir(join(root, 'tasks'));
    await expect(BatchDir.open(root, TEST_STATE_KEY, false)).rejects.toThrow(/holds a batch already/);
    await (await BatchDir.open(root, TEST_STATE_KEY, true)).unlock();
    const other = join(root, 'other');
    await mkdir(other);
    await writeFile(join(other, 'notes.txt'), 'mine');
    await expect(BatchDir.open(other, TEST_STATE_KEY, false)).rejects.toThrow(/not empty and holds no batch/);
    await expect(BatchDir.open(other, TEST_STATE_KEY, true)).rejects.toThrow(/holds no batch to resume/);
  });
});

describe('attempt records', () => {
  it('reads back what it sealed; a changed, unsealed or foreign record is not trusted', async () => {
    const dir = await BatchDir.open(root, TEST_STATE_KEY, false);
    for (const n of [1, 2, 3, 4]) {
      await dir.makeAttempt('t', n);
      await dir.writeRecord(record(n));
    }
    await dir.makeAttempt('t', 5); // its process died before writing the record
    const two = join(dir.attemptPath('t', 2), 'attempt.json');
    await writeFile(two, (await readFile(two, 'utf8')).replace('"sample": 1', '"sample": 2'));
    const three = join(dir.attemptPath('t', 3), 'attempt.json');
    await writeFile(three, JSON.stringify(record(3), null, 2));
    const other = await BatchDir.open(join(root, 'elsewhere'), stateKeyFromSecret('x'.repeat(40)), false);
    await other.makeAttempt('t', 4);
    await other.writeRecord(record(4));
    await writeFile(
      join(dir.attemptPath('t', 4), 'attempt.json'),
      await readFile(join(other.attemptPath('t', 4), 'attempt.json')),
    );
    const got = await dir.readTask('t');
    expect(got.taken).toEqual([1, 2, 3, 4, 5]);
    expect(got.records.map((r) => r.attempt)).toEqual([1]);
    expect(got.unreadable.map((u) => [u.attempt, u.why])).toEqual([
      [2, 'its seal does not match your state key (the test key)'],
      [3, 'it carries no seal'],
      [4, 'its seal does not match your state key (the test key)'],
    ]);
    await dir.unlock();
    await other.unlock();
  });
});
