import { mkdtemp, readdir, readFile, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HammerError } from '../../../src/errors.js';
import { artifactNames, isRunId, newRunId, RunStore, RunStateSchema } from '../../../src/state/index.js';
import { STATE_GITIGNORE } from '../../../src/state/store.js';
import { startIteration, updateIteration } from '../../../src/state/transitions.js';
import { iteration, makeState, RUN_ID, testRecord, trajectory } from './make-state.js';
import { TEST_STATE_KEY } from '../../helpers/state-key.js';
import { sealState, unsealedBody } from '../../../src/state/state-mac.js';

/** A file text sealed with the test key, as if hammer-box had written it (to reach the checks behind the seal). */
const sealed = (v: unknown): string =>
  sealState(typeof v === 'string' ? v : `${JSON.stringify(v, null, 2)}\n`, TEST_STATE_KEY.bytes);

let dir: string;
let store: RunStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-store-'));
  store = new RunStore({ dir: join(dir, '.hammer'), key: TEST_STATE_KEY });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function expectError(p: Promise<unknown>, code: string, message: RegExp): Promise<HammerError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HammerError);
  expect((err as HammerError).code).toBe(code);
  expect((err as HammerError).message).toMatch(message);
  return err as HammerError;
}

describe('run ids', () => {
  it('are a UTC timestamp plus six base32 characters', () => {
    const id = newRunId(new Date('2026-11-22T14:05:01.789Z'), () => new Uint8Array([0, 1, 2, 3, 30, 31]));
    expect(id).toBe('20261122T140501Z-abcd67');
    expect(isRunId(id)).toBe(true);
    expect(isRunId('../etc/passwd')).toBe(false);
  });
  it('differ for runs started in the same second', () => {
    const now = new Date('2026-11-22T14:05:01Z');
    const ids = new Set(Array.from({ length: 1000 }, () => store.newRunId(now)));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id.startsWith('20261122T140501Z-')).toBe(true);
  });
});

describe('RunStore', () => {
  it('creates, reads back and rewrites a run', async () => {
    const state = makeState();
    await store.create(state);
    expect(await store.read(RUN_ID)).toEqual(state);
    const next = makeState({
      iterations: [iteration(1, 'applied', { patch: 'a', test: testRecord(0) })],
      status: 'stable',
      reason: 'tests_pass',
    });
    await store.write(next);
    expect(await store.read(RUN_ID)).toEqual(next);
    const text = await readFile(store.statePath(RUN_ID), 'utf8');
    expect(JSON.parse(text)).toMatchObject({ schema_version: 1, run_id: RUN_ID });
  });

  it('keeps the state directory out of git status with its own .gitignore, leaving an existing one alone', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: dir, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } }).toString();
    git('init', '--quiet');
    await writeFile(join(dir, 'a.txt'), 'a\n');
    await store.create(makeState());
    expect(await readFile(join(dir, '.hammer', '.gitignore'), 'utf8')).toBe(STATE_GITIGNORE);
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('?? a.txt\n');
    expect(git('check-ignore', '.hammer/runs/x.json')).toBe('.hammer/runs/x.json\n');

    await writeFile(join(dir, '.hammer', '.gitignore'), 'mine\n');
    await store.create(makeState({ run_id: '20261122T140502Z-abcdef' }));
    expect(await readFile(join(dir, '.hammer', '.gitignore'), 'utf8')).toBe('mine\n');
  });

  it('refuses to create a run whose id is taken', async () => {
    await store.create(makeState());
    await expectError(store.create(makeState()), 'INTERNAL', /already taken/);
  });

  it('refuses to write an invalid state', async () => {
    await store.create(makeState());
    const bad = { ...makeState(), status: 'happy' } as unknown as ReturnType<typeof makeState>;
    await expectError(store.write(bad), 'INTERNAL', /status/);
    expect((await store.read(RUN_ID)).status).toBe('running');
  });

  it('validates each iteration as it changes: one written before and unchanged is kept, a bad new one refused by its index', async () => {
    await store.create(makeState());
    const at = new Date('2026-11-24T08:00:00Z');
    let state = makeState();
    for (let i = 0; i < 3; i++) state = startIteration(state, at);
    await store.write(state);
    state = updateIteration(state, 2, { summary: 'changed after the first write' }, at);
    state = startIteration(state, at);
    await store.write(state);
    const back = await store.read(RUN_ID);
    expect(back.iterations.map((it) => [it.n, it.summary])).toEqual(state.iterations.map((it) => [it.n, it.summary]));
    expect(back).toEqual(state);
    // iterations 1-4 were written before; a bad fifth is refused, named by its place in the state
    const bad = { ...startIteration(state, at) };
    bad.iterations = [...bad.iterations.slice(0, 4), { ...bad.iterations[4]!, outcome: 'splendid' } as never];
    await expectError(store.write(bad), 'INTERNAL', /iterations\[4\]\.outcome/);
    // and a changed copy of one written before is validated again
    const changed = {
      ...state,
      iterations: [{ ...state.iterations[0]!, outcome: 'marvellous' as never }, ...state.iterations.slice(1)],
    };
    await expectError(store.write(changed), 'INTERNAL', /iterations\[0\]\.outcome/);
    expect((await store.read(RUN_ID)).iterations).toHaveLength(4);
  });

  it('keeps the file whole when two stores (two writers) rewrite it at once', async () => {
    const other = new RunStore({ dir: store.dir, key: TEST_STATE_KEY });
    await store.create(makeState());
    const big = (k: number) =>
      makeState({
        directive: { path: 'D.md', text: String(k).repeat(20_000), sha256: 'd'.repeat(64) },
        iterations: [iteration(1, 'unusable', { reason: String(k) })],
      });
    const jobs: Promise<unknown>[] = [];
    for (let k = 0; k < 50; k++) {
      jobs.push((k % 2 === 0 ? store : other).write(big(k)));
      jobs.push(
        other.read(RUN_ID).then((s) => {
          // The first state (its own directive) or one whole written state, never a mix.
          const d = s.directive.text;
          expect(d === makeState().directive.text || d === d.slice(0, d.length / 20_000).repeat(20_000)).toBe(true);
        }),
      );
    }
    await Promise.all(jobs);
    const final = await store.read(RUN_ID);
    expect(final.directive.text).toBe(final.iterations[0]!.extraction!.reason!.repeat(20_000));
  });

  it('never leaves a half-written file across 200 overlapping rewrites, and keeps the last', async () => {
    await store.create(makeState());
    const writes: Promise<void>[] = [];
    const reads: Promise<void>[] = [];
    for (let k = 1; k <= 200; k++) {
      const iterations = Array.from({ length: k % 7 }, (_, j) =>
        iteration(j + 1, 'rejected', { patch: 'a', reason: 'x'.repeat(k * 50) }),
      );
      writes.push(
        store.write(makeState({ updated_at: new Date(Date.UTC(2026, 10, 22, 14, 0, k)).toISOString(), iterations })),
      );
      reads.push(
        store.read(RUN_ID).then((s) => {
          expect(RunStateSchema.safeParse(s).success).toBe(true);
        }),
      );
    }
    await Promise.all([...writes, ...reads]);
    const final = await store.read(RUN_ID);
    expect(final.updated_at).toBe(new Date(Date.UTC(2026, 10, 22, 14, 0, 200)).toISOString());
    const leftovers = (await readdir(store.runsDir)).filter((n) => n.endsWith('.tmp'));
    expect(leftovers).toEqual([]);
  });

  it('says RUN_NOT_FOUND for a missing run and for something that is not a run id', async () => {
    await expectError(store.read('20261122T140501Z-zzzzzz'), 'RUN_NOT_FOUND', /no run 20261122T140501Z-zzzzzz/);
    await expectError(store.read('../../etc/passwd'), 'RUN_NOT_FOUND', /run ids look like/);
  });

  it('says STATE_INVALID naming the file and the field for a hand-edited state', async () => {
    await store.create(makeState({ iterations: [iteration(1, 'applied', { patch: 'a', test: testRecord(1) })] }));
    const path = store.statePath(RUN_ID);
    const json = JSON.parse(await readFile(path, 'utf8')) as { iterations: { test: { exit_code: unknown } }[] };
    json.iterations[0]!.test.exit_code = 'one';
    await writeFile(path, sealed(json));
    const err = await expectError(store.read(RUN_ID), 'STATE_INVALID', /iterations\[0\]\.test\.exit_code/);
    expect(err.message).toContain(path);
  });

  it('says STATE_INVALID for a truncated file, a newer schema, a mismatched run id and a traversing artifact', async () => {
    const path = store.statePath(RUN_ID);
    await store.create(makeState());
    const good = unsealedBody(await readFile(path, 'utf8'));
    await writeFile(path, sealed(good.slice(0, good.length / 2)));
    await expectError(store.read(RUN_ID), 'STATE_INVALID', /not valid JSON/);
    await writeFile(path, sealed({ ...makeState(), schema_version: 2 }));
    await expectError(store.read(RUN_ID), 'STATE_INVALID', /schema_version is 2/);
    await writeFile(path, sealed({ ...makeState(), run_id: '20261122T140501Z-bbbbbb' }));
    await expectError(store.read(RUN_ID), 'STATE_INVALID', /does not match the file name/);
    const evil = makeState({ iterations: [iteration(1, 'unusable')] });
    evil.iterations[0]!.answer!.artifact = '../../../etc/passwd';
    await writeFile(path, sealed(evil));
    await expectError(store.read(RUN_ID), 'STATE_INVALID', /answer\.artifact/);
  });

  it('refuses a state file that is a symlink', async () => {
    await mkdir(store.runsDir, { recursive: true });
    const elsewhere = join(dir, 'elsewhere.json');
    await writeFile(elsewhere, JSON.stringify(makeState()));
    await symlink(elsewhere, store.statePath(RUN_ID));
    await expectError(store.read(RUN_ID), 'STATE_INVALID', /cannot read/);
  });

  it('refuses to keep state in a symlinked runs directory', async () => {
    await mkdir(join(dir, 'target'));
    await mkdir(store.dir);
    await symlink(join(dir, 'target'), store.runsDir);
    await expectError(store.create(makeState()), 'REPO_INVALID', /is a symlink/);
    expect(await readdir(join(dir, 'target'))).toEqual([]);
  });

  it('makes nothing through a symlinked or dangling state directory', async () => {
    await mkdir(join(dir, 'target'));
    await symlink(join(dir, 'target'), store.dir);
    await expectError(store.create(makeState()), 'REPO_INVALID', /\.hammer is a symlink/);
    expect(await readdir(join(dir, 'target'))).toEqual([]);
    await rm(store.dir);
    await symlink(join(dir, 'nowhere'), store.dir);
    await expectError(store.create(makeState()), 'REPO_INVALID', /\.hammer is a symlink/);
    expect(await readdir(dir)).not.toContain('nowhere');
  });

  it('trusts only files sealed under its key: an unsealed, an edited and a foreign-key file are STATE_INVALID', async () => {
    await store.create(makeState());
    const path = store.statePath(RUN_ID);
    const text = await readFile(path, 'utf8');
    expect(text.split('\n')[1]).toMatch(/^ {2}"mac": "hmac-sha256:[0-9a-f]{64}",$/);
    // unsealed: what a repository could carry
    await writeFile(path, unsealedBody(text));
    await expectError(store.read(RUN_ID), 'STATE_INVALID', /not trusted: it carries no seal/);
    // sealed, then changed (a later created_at to be listed first)
    await writeFile(path, text.replace('"created_at": "2026', '"created_at": "2099'));
    await expectError(store.read(RUN_ID), 'STATE_INVALID', /its seal does not match your state key \(the test key\)/);
    // sealed under another key
    await writeFile(path, sealState(unsealedBody(text), Buffer.from('another user'.padEnd(40, '!'))));
    const err = await expectError(store.read(RUN_ID), 'STATE_INVALID', /seal does not match/);
    expect(err.hint).toContain('HAMMER_STATE_KEY');
    expect((await store.list()).runs).toEqual([]);
    // control: the file as written reads back
    await writeFile(path, text);
    expect((await store.read(RUN_ID)).run_id).toBe(RUN_ID);
  });

  it('keeps the state file small whatever texts a run meets: it can still be read back', async () => {
    const huge = 'x'.repeat(8 * 1024 * 1024);
    const state = makeState({
      reason_detail: huge,
      iterations: [iteration(1, 'applied', { patch: 'a', test: { ...testRecord(1), stdout_tail: huge } })],
      errors: Array.from({ length: 500 }, (_, i) => ({
        at: '2026-11-22T14:05:01.000Z',
        code: 'X',
        message: `${i}${huge.slice(0, 10_000)}`,
      })),
    });
    await store.create(state);
    const bytes = (await readFile(store.statePath(RUN_ID))).length;
    expect(bytes).toBeLessThan(1024 * 1024);
    const back = await store.read(RUN_ID);
    expect(back.reason_detail?.length).toBeLessThanOrEqual(4096);
    expect(back.reason_detail).toContain("the run's artifacts hold the full text");
    expect(back.iterations[0]?.test?.stdout_tail.length).toBeLessThanOrEqual(8192);
    expect(back.errors.length).toBe(100);
  });

  it('lists runs newest first, skipping (and reporting) unreadable ones and ignoring temp files', async () => {
    const older = makeState({ run_id: '20261121T100000Z-aaaaaa', created_at: '2026-11-21T10:00:00.000Z' });
    const newer = makeState({ run_id: '20261122T100000Z-bbbbbb', created_at: '2026-11-22T10:00:00.000Z' });
    await store.create(older);
    await store.create(newer);
    await writeFile(join(store.runsDir, '20261120T100000Z-cccccc.json'), sealed('{\n"schema_version": 1'));
    // What a crash mid-write leaves behind, and unrelated files.
    await writeFile(join(store.runsDir, `.${RUN_ID}.json.123.abcd.tmp`), '{"half');
    await writeFile(join(store.runsDir, 'notes.json'), 'hello');
    const list = await store.list();
    expect(list.runs.map((r) => r.run_id)).toEqual(['20261122T100000Z-bbbbbb', '20261121T100000Z-aaaaaa']);
    expect(list.skipped).toHaveLength(1);
    expect(list.skipped[0]!.file).toContain('20261120T100000Z-cccccc.json');
    expect(list.skipped[0]!.message).toMatch(/not valid JSON/);
  });

  it('lists nothing when there is no state directory yet', async () => {
    expect(await store.list()).toEqual({ runs: [], skipped: [] });
  });

  it('writes artifacts beside the state and returns their relative names', async () => {
    await store.create(makeState());
    const name = await store.writeArtifact(RUN_ID, artifactNames.prompt(1), '# prompt\n');
    expect(name).toBe('iter-01-prompt.md');
    expect(store.artifactsDir(RUN_ID)).toBe(join(store.runsDir, RUN_ID));
    expect(await readFile(join(store.artifactsDir(RUN_ID), name), 'utf8')).toBe('# prompt\n');
    expect(artifactNames.patch(3)).toBe('iter-03.patch');
    expect(artifactNames.testLog(12)).toBe('iter-12-test.log');
    expect(artifactNames.baselineTestLog()).toBe('baseline-test.log');
    await expect(store.writeArtifact(RUN_ID, '../escape.md', 'x')).rejects.toThrow(/not an artifact name/);
    await expect(store.writeArtifact(RUN_ID, 'a/b.md', 'x')).rejects.toThrow(/not an artifact name/);
  });

  it('reads back the recorded answers in iteration order for replay, byte for byte, with their finish reasons', async () => {
    const answers = ['```diff\n--- a/x\n+++ b/x\n```\n', 'NO_CHANGES', 'weird \u001b[31m bytes\r\n'];
    const its = [iteration(2, 'no_changes'), iteration(1, 'rejected', { patch: 'a' }), iteration(3, 'unusable')];
    its[2] = { ...its[2]!, answer: { ...its[2]!.answer!, finish_reason: 'length' } };
    await store.create(makeState({ iterations: its }));
    await store.writeArtifact(RUN_ID, artifactNames.answer(1), answers[0]!);
    await store.writeArtifact(RUN_ID, artifactNames.answer(2), answers[1]!);
    await store.writeArtifact(RUN_ID, artifactNames.answer(3), answers[2]!);
    expect(await store.readReplayAnswers(RUN_ID)).toEqual([
      { text: answers[0] },
      { text: answers[1] },
      { text: answers[2], finishReason: 'length' },
    ]);
  });

  it("plays an iteration's answers that asked to see more before its answer, in order", async () => {
    const ask = (k: number) => ({
      answer_artifact: artifactNames.askAnswer(1, k),
      reply_artifact: artifactNames.askReply(1, k),
      items: [],
      chars: 0,
    });
    await store.create(makeState({ iterations: [{ ...iteration(1, 'no_changes'), asks: [ask(1), ask(2)] }] }));
    await store.writeArtifact(RUN_ID, artifactNames.askAnswer(1, 1), 'READ a.py');
    await store.writeArtifact(RUN_ID, artifactNames.askAnswer(1, 2), 'GREP b');
    await store.writeArtifact(RUN_ID, artifactNames.answer(1), 'NO_CHANGES');
    expect(await store.readReplayAnswers(RUN_ID)).toEqual([
      { text: 'READ a.py' },
      { text: 'GREP b' },
      { text: 'NO_CHANGES' },
    ]);
  });

  it("plays an agent iteration's turns in order, with their tool calls, the last with how a bound ended it", async () => {
    const its = [
      { ...iteration(1, 'applied', { patch: 'a' }), answer: null, trajectory: trajectory(1, 2) },
      {
        ...iteration(2, 'unusable'),
        answer: null,
        trajectory: trajectory(2, 1, { reason: 'max_seconds', detail: '1800 s' }),
      },
    ];
    its[0]!.trajectory.turns[0]!.tool_calls_artifact = artifactNames.turnToolCalls(1, 1);
    its[0]!.trajectory.turns[1]!.finish_reason = 'tool_calls';
    await store.create(makeState({ iterations: its }));
    const call = { id: 'call_1', name: 'bash', arguments: '{"command":"ls"}' };
    await store.writeArtifact(RUN_ID, artifactNames.turnAnswer(1, 1), '');
    await store.writeArtifact(RUN_ID, artifactNames.turnToolCalls(1, 1), JSON.stringify([call]));
    await store.writeArtifact(RUN_ID, artifactNames.turnAnswer(1, 2), '<function=submit>\n</function>');
    await store.writeArtifact(RUN_ID, artifactNames.turnAnswer(2, 1), '```bash\nls\n```');
    expect(await store.readReplayAnswers(RUN_ID)).toEqual([
      { text: '', toolCalls: [call] },
      { text: '<function=submit>\n</function>', finishReason: 'tool_calls' },
      { text: '```bash\nls\n```', trajectoryEnd: 'max_seconds' },
    ]);
  });

  it('says STATE_INVALID when a recorded answer is missing', async () => {
    await store.create(makeState({ iterations: [iteration(1, 'unusable')] }));
    await expectError(store.readReplayAnswers(RUN_ID), 'STATE_INVALID', /iter-01-answer\.md/);
  });
});

describe('state directory trouble', () => {
  it("sweeps temp files of dead writers when a run is created, keeping a live writer's", async () => {
    const runs = join(dir, '.hammer', 'runs');
    await mkdir(runs, { recursive: true });
    const dead = `.${RUN_ID}.json.999999999.0a1b2c3d.tmp`; // no such pid
    const live = `.${RUN_ID}.json.${process.pid}.deadbeef.tmp`;
    await writeFile(join(runs, dead), '{"half');
    await writeFile(join(runs, live), '{"half');
    await store.create(makeState({ run_id: newRunId(new Date('2026-11-22T15:00:00Z')) }));
    const left = await readdir(runs);
    expect(left).not.toContain(dead);
    expect(left).toContain(live);
  });

  it("never writes a run's artifact or state through a link that appeared after the run began", async () => {
    const host = await mkdtemp(join(tmpdir(), 'hb-store-host-'));
    try {
      await store.create(makeState({ artifacts_dir: store.artifactsDir(RUN_ID) }));
      await rm(store.artifactsDir(RUN_ID), { recursive: true });
      await symlink(host, store.artifactsDir(RUN_ID));
      await expectError(store.writeArtifact(RUN_ID, 'PR_SUMMARY.md', 'x'), 'REPO_INVALID', /is a symlink/);
      await rm(store.artifactsDir(RUN_ID));
      const runs = join(dir, '.hammer', 'runs');
      await rm(runs, { recursive: true });
      await symlink(host, runs);
      await expectError(
        store.write(makeState({ artifacts_dir: store.artifactsDir(RUN_ID) })),
        'REPO_INVALID',
        /runs is a symlink/,
      );
      expect(await readdir(host)).toEqual([]);
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  });
});
