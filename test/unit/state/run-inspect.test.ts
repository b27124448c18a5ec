// RunInspector: every state file with whether its seal verified, and artifacts read in bounded
// pieces only from real directories.
import { mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { RunInspector } from '../../../src/state/run-inspect.js';
import { sealState, unsealedBody } from '../../../src/state/state-mac.js';
import { RunStore } from '../../../src/state/store.js';
import { TEST_STATE_KEY } from '../../helpers/state-key.js';
import { makeState } from './make-state.js';

const GOOD = '20261122T140501Z-aaaaaa';
const UNSEALED = '20261122T140502Z-bbbbbb';
const OTHER_KEY = '20261122T140503Z-cccccc';
const BROKEN = '20261122T140504Z-dddddd';

let dir: string;
let store: RunStore;
let inspector: RunInspector;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-inspect-'));
  store = new RunStore({ dir: join(dir, '.hammer'), key: TEST_STATE_KEY });
  inspector = new RunInspector({ dir: join(dir, '.hammer'), key: TEST_STATE_KEY });
  await store.create(makeState({ run_id: GOOD }));
  await store.writeArtifact(GOOD, 'iter-01-test.log', 'x'.repeat(1000));
  const body = unsealedBody(await readFile(store.statePath(GOOD), 'utf8'));
  await writeFile(store.statePath(UNSEALED), body.replaceAll(GOOD, UNSEALED));
  await writeFile(
    store.statePath(OTHER_KEY),
    sealState(body.replaceAll(GOOD, OTHER_KEY), Buffer.from('another key'.padEnd(40, '.'))),
  );
  await writeFile(store.statePath(BROKEN), sealState('{\n  "schema_version": 1\n}\n', TEST_STATE_KEY.bytes));
  await writeFile(join(store.runsDir, 'notes.json'), '{}');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('RunInspector', () => {
  it('lists the run ids that have a state file, and none in a directory that does not exist', async () => {
    expect(await inspector.runIds()).toEqual([GOOD, UNSEALED, OTHER_KEY, BROKEN]);
    expect(await new RunInspector({ dir: join(dir, 'none'), key: TEST_STATE_KEY }).runIds()).toEqual([]);
  });

  it('says whether each seal verified, parsing the untrusted ones for display only', async () => {
    const good = await inspector.inspect(GOOD);
    expect(good).toMatchObject({ seal: 'verified', problem: null });
    expect(good.state?.run_id).toBe(GOOD);
    const unsealed = await inspector.inspect(UNSEALED);
    expect(unsealed.seal).toBe('unsealed');
    expect(unsealed.state?.run_id).toBe(UNSEALED);
    expect(unsealed.problem).toContain('carries no seal');
    const other = await inspector.inspect(OTHER_KEY);
    expect(other.seal).toBe('mismatch');
    expect(other.problem).toContain('does not match your state key');
    const broken = await inspector.inspect(BROKEN);
    expect(broken).toMatchObject({ seal: 'verified', state: null });
    expect(broken.problem).toContain('run_id');
  });

  it('says RUN_NOT_FOUND for a missing run and a malformed id', async () => {
    for (const id of ['20261122T140509Z-zzzzzz', '../../etc/passwd']) {
      const err = await inspector.inspect(id).catch((e: unknown) => e);
      expect(isHammerError(err, 'RUN_NOT_FOUND')).toBe(true);
    }
  });

  it('reads the head of an artifact, says how large it is, and returns null when it is absent', async () => {
    const head = await inspector.readArtifactHead(GOOD, 'iter-01-test.log', 100);
    expect(head).toMatchObject({ text: 'x'.repeat(100), size: 1000, truncated: true });
    expect((await inspector.readArtifactHead(GOOD, 'iter-01-test.log', 5000))?.truncated).toBe(false);
    expect(await inspector.readArtifactHead(GOOD, 'iter-02-test.log', 100)).toBeNull();
  });

  it('refuses artifact names that are paths, and reads nothing through a symlink', async () => {
    for (const name of ['../x', '/etc/passwd', '..', '.hidden'])
      await expect(inspector.readArtifactHead(GOOD, name, 10)).rejects.toThrow(/not an artifact name/);
    const outside = await mkdtemp(join(tmpdir(), 'hb-inspect-outside-'));
    await writeFile(join(outside, 'secret.log'), 'outside');
    await symlink(join(outside, 'secret.log'), join(store.artifactsDir(GOOD), 'link.log'));
    await expect(inspector.readArtifactHead(GOOD, 'link.log', 10)).rejects.toThrow();
    const artifacts = store.artifactsDir(GOOD);
    await rename(artifacts, `${artifacts}.aside`);
    await symlink(outside, artifacts);
    try {
      const err = await inspector.readArtifactHead(GOOD, 'secret.log', 10).catch((e: unknown) => e);
      expect(isHammerError(err, 'STATE_INVALID')).toBe(true);
      expect((err as Error).message).toContain('a symlink');
    } finally {
      await rm(artifacts);
      await rename(`${artifacts}.aside`, artifacts);
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('gives the state file a stamp that changes when it is rewritten', async () => {
    const before = await inspector.stateStamp(GOOD);
    expect(before).toEqual((await inspector.inspect(GOOD)).stamp);
    await store.write(makeState({ run_id: GOOD, status: 'stable', reason: 'tests_pass' }));
    const after = await inspector.stateStamp(GOOD);
    expect(after).not.toEqual(before);
    expect(await inspector.stateStamp('20261122T140509Z-zzzzzz')).toBeNull();
  });
});
