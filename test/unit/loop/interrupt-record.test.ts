// A Ctrl-C is written into the state the moment it arrives, before the cleanup it starts: a cleanup
// that runs out of its grace time (the process then exits 130 without unwinding) still leaves a
// state that says `interrupted`, never `running`.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/log.js';
import { RunRecorder } from '../../../src/loop/phase-runner.js';
import { artifactNames } from '../../../src/state/artifact-names.js';
import { RunStore } from '../../../src/state/index.js';
import type { RunState } from '../../../src/state/run-state.js';
import { TEST_STATE_KEY } from '../../helpers/state-key.js';
import { makeState, RUN_ID } from '../state/make-state.js';

let dir: string;
let store: RunStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-interrupt-'));
  store = new RunStore({ dir: join(dir, '.hammer'), key: TEST_STATE_KEY });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function recorder(state: RunState): Promise<RunRecorder> {
  await store.create(state);
  return new RunRecorder(
    state,
    store,
    () => undefined,
    () => new Date('2026-11-24T08:00:00Z'),
    createLogger({ level: 'silent' }),
  );
}

describe('RunRecorder.interruptOn', () => {
  it('writes interrupted to the state file when the signal aborts, while the phase in flight still runs', async () => {
    const rec = await recorder(makeState({ status: 'running' }));
    const ctl = new AbortController();
    const stop = rec.interruptOn(ctl.signal);
    ctl.abort();
    // nothing else happens in the run (its phase is stuck killing processes): the file already says so
    await vi.waitFor(async () => expect((await store.read(RUN_ID)).status).toBe('interrupted'));
    const written = await store.read(RUN_ID);
    expect(written.reason).toBe('interrupted');
    stop();
  });

  it('leaves a run that already ended alone, and a later end is recorded over it', async () => {
    const ended = await recorder(makeState({ status: 'stable', reason: 'tests_pass' }));
    const ctl = new AbortController();
    ended.interruptOn(ctl.signal);
    ctl.abort();
    await new Promise((r) => setTimeout(r, 50));
    expect((await store.read(RUN_ID)).status).toBe('stable');
  });

  it('records at once when the signal had already aborted, and not at all after stop()', async () => {
    const rec = await recorder(makeState({ status: 'running' }));
    rec.interruptOn(AbortSignal.abort());
    await vi.waitFor(async () => expect((await store.read(RUN_ID)).status).toBe('interrupted'));

    await rm(join(dir, '.hammer'), { recursive: true, force: true });
    store = new RunStore({ dir: join(dir, '.hammer'), key: TEST_STATE_KEY });
    const quiet = await recorder(makeState({ status: 'running' }));
    const ctl = new AbortController();
    quiet.interruptOn(ctl.signal)();
    ctl.abort();
    await new Promise((r) => setTimeout(r, 50));
    expect((await store.read(RUN_ID)).status).toBe('running');
  });
});

describe('RunRecorder.phase', () => {
  it('writes a phase record at once, or with the next write when asked; a failed phase always at once', async () => {
    const rec = await recorder(makeState({ status: 'running' }));
    await rec.phase('setup', null, async () => undefined);
    expect((await store.read(RUN_ID)).phases.setup?.status).toBe('done');
    await rec.phase('prepare', null, async () => undefined, { write: false });
    expect((await store.read(RUN_ID)).phases.prepare).toBeUndefined();
    expect(rec.state.phases.prepare?.status).toBe('done');
    await rec.update((s) => s);
    expect((await store.read(RUN_ID)).phases.prepare?.status).toBe('done');
    const err = await rec
      .phase(
        'baseline',
        null,
        async () => {
          throw new Error('boom');
        },
        { write: false },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((await store.read(RUN_ID)).phases.baseline).toMatchObject({ status: 'failed', detail: 'boom' });
  });

  it("writes a phase recorded 'behind' without waiting; the next write, or flush, waits for it and throws its failure", async () => {
    const rec = await recorder(makeState({ status: 'running' }));
    await rec.phase('setup', null, async () => undefined, { write: 'behind' });
    // in memory at once, on disk soon, without anything else written
    expect(rec.state.phases.setup?.status).toBe('done');
    await vi.waitFor(async () => expect((await store.read(RUN_ID)).phases.setup?.status).toBe('done'));
    await rec.phase('prepare', null, async () => undefined, { write: 'behind' });
    await rec.phase('baseline', null, async () => undefined);
    const after = await store.read(RUN_ID);
    expect(after.phases.prepare?.status).toBe('done');
    expect(after.phases.baseline?.status).toBe('done');

    // a write that fails behind the phase is thrown by the next flush, not lost
    await rm(join(dir, '.hammer'), { recursive: true, force: true });
    await rec.phase('deliver', null, async () => undefined, { write: 'behind' });
    await expect(rec.flush()).rejects.toThrow(/ENOENT|unwritable|cannot/i);
    await expect(rec.flush()).resolves.toBeUndefined();
  });

  it('writes an artifact left behind before any later state write, and throws its failure at the next flush', async () => {
    const rec = await recorder(makeState({ status: 'running' }));
    // large enough that, written side by side instead of in turn, the state would land first
    const big = 'x'.repeat(16 * 1024 * 1024);
    let seen: number | undefined;
    const wrote = store.write.bind(store);
    vi.spyOn(store, 'write').mockImplementation(async (state) => {
      await wrote(state);
      seen ??= await readFile(join(store.artifactsDir(RUN_ID), artifactNames.prompt(1)), 'utf8').then(
        (t) => t.length,
        () => -1,
      );
    });
    await rec.artifact(artifactNames.prompt(1), big, { behind: true });
    await rec.phase('setup', null, async () => undefined);
    expect(seen, 'the artifact was whole on disk when the state write after it landed').toBe(big.length);

    // the artifacts directory made a file: the artifact cannot be written
    await rm(store.artifactsDir(RUN_ID), { recursive: true, force: true });
    await writeFile(store.artifactsDir(RUN_ID), 'not a directory');
    await rec.artifact(artifactNames.answer(1), 'x', { behind: true });
    await expect(rec.flush()).rejects.toThrow(/EEXIST|ENOTDIR|unwritable|cannot/i);
    await expect(rec.flush()).resolves.toBeUndefined();
    await expect(rec.artifact(artifactNames.answer(1), 'x')).rejects.toThrow(/EEXIST|ENOTDIR|unwritable|cannot/i);
  });
});
