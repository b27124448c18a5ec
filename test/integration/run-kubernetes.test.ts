// `hammer-box run` with [sandbox] engine = "kubernetes", end to end, against a fake API server whose
// pods are Docker containers (test/helpers/fake-kube.ts): that cluster cannot prove a NetworkPolicy
// is enforced (its probe reaches nothing even without one), so a run on an untrusted repository is
// refused before any sandbox exists, and a trusted one runs there to tests-pass with a warning;
// doctor and gc with --engine kubernetes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctor } from '../../src/api/doctor.js';
import { gc } from '../../src/api/gc.js';
import { run } from '../../src/api/run.js';
import { runBatch } from '../../src/batch/batch.js';
import { CONNECT_PROBE } from '../../src/sandbox/kubernetes/network-probe.js';
import { isHammerError } from '../../src/errors.js';
import type { LoopEvent } from '../../src/loop/events.js';
import { startFakeKube, type FakeKube } from '../helpers/fake-kube.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, FIX_PATCH, type PythonFixture } from '../helpers/python-fixture.js';
import { createDockerClient } from '../../src/sandbox/index.js';
import { modelFlags, readState, runIdsIn, testEnv } from './run-support.js';

let fake: FakeKube;
let dir: string;
let fx: PythonFixture;
let server: ModelServer;

beforeAll(async () => {
  await toolchainImage('python');
  fake = await startFakeKube({ docker: createDockerClient() });
  dir = await mkdtemp(join(tmpdir(), 'hb-run-kube-'));
  await writeFile(join(dir, 'kubeconfig'), fake.kubeconfig);
  fx = await createPythonFixture();
  server = await startModelServer({ script: [{ answer: answerWith(FIX_PATCH, 'The loop subtracts; it must add.') }] });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  await fx?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

const flags = (trusted: boolean) => ({
  ...modelFlags(server, { numCtx: 8192 }),
  sandbox: { engine: 'kubernetes', trusted_repo: trusted },
  kubernetes: { kubeconfig: join(dir, 'kubeconfig'), start_timeout: 60 },
});

describe('run on Kubernetes', () => {
  it('refuses an untrusted repository where the cluster cannot prove "no network", before any sandbox', async () => {
    const err = await run({ repo: fx.repo.path, directive: fx.directive, env: testEnv(), flags: flags(false) }).catch(
      (e: unknown) => e,
    );
    expect(isHammerError(err, 'SANDBOX_NETWORK_UNPROVEN')).toBe(true);
    expect((err as Error).message).toMatch(/even without a policy/);
    // the probe's pod and policy are gone, and no sandbox was made
    expect(fake.pods.size + fake.policies.size).toBe(0);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/pods'))).toHaveLength(1);
    const [runId] = await runIdsIn(fx.repo.path);
    expect((await readState(fx.repo.path, runId!)).status).toBe('error');
  });

  it('runs a trusted repository there to tests-pass, with a warning, and leaves nothing behind', async () => {
    const events: LoopEvent[] = [];
    const outcome = await run({
      repo: fx.repo.path,
      directive: fx.directive,
      env: testEnv(),
      flags: flags(true),
      emit: (e) => events.push(e),
    });
    expect(outcome.state.status).toBe('stable');
    expect(events.some((e) => e.type === 'notice' && e.level === 'warning' && /not proven/.test(e.text))).toBe(true);
    // every command ran through pods/exec
    expect(fake.execs.length).toBeGreaterThan(3);
    expect(fake.pods.size + fake.policies.size).toBe(0);
  });
});

describe('a batch on Kubernetes', () => {
  it('proves the network once for all its attempts, not once per attempt', async () => {
    const work = await mkdtemp(join(tmpdir(), 'hb-kube-batch-'));
    try {
      // its own state directory: no proof an earlier run of this file kept
      const env = testEnv({ XDG_STATE_HOME: join(work, 'state') });
      const tasks = ['a', 'b', 'c'].map((id) =>
        JSON.stringify({ id, repo: fx.repo.path, commit: 'main', directive: 'Fix add() so the tests pass.' }),
      );
      await writeFile(join(work, 'tasks.jsonl'), `${tasks.join('\n')}\n`);
      for (let i = 0; i < 3; i++) server.enqueue({ answer: answerWith(FIX_PATCH, 'The loop subtracts.') });
      const probes = () => fake.execs.filter((e) => e.argv.join(' ') === CONNECT_PROBE.join(' ')).length;
      const before = probes();
      const { report } = await runBatch({
        tasksFile: join(work, 'tasks.jsonl'),
        out: join(work, 'out'),
        jobs: 3,
        modelJobs: 3,
        taskTimeoutS: 300,
        resume: false,
        retry: [],
        env,
        flags: flags(true),
        version: 'test',
      });
      expect(report.tasks.map((t) => t.status)).toEqual(['stable', 'stable', 'stable']);
      // this fake's probe reaches nothing even without a policy: one connect per proof
      expect(probes() - before).toBe(1);
      expect(fake.pods.size + fake.policies.size).toBe(0);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('cleanup through an API server outage', () => {
  /** A trusted run whose API server goes down as its branch is delivered, for `downMs` (or for good). */
  const runWithOutage = async (downMs: number | 'for good', extra: Record<string, Record<string, unknown>> = {}) => {
    server.enqueue({ answer: answerWith(FIX_PATCH, 'The loop subtracts; it must add.') });
    const events: LoopEvent[] = [];
    const base = flags(true);
    const outcome = await run({
      repo: fx.repo.path,
      directive: fx.directive,
      env: testEnv(),
      flags: {
        ...base,
        sandbox: { ...base.sandbox, ...extra['sandbox'] },
        kubernetes: { ...base.kubernetes, ...extra['kubernetes'] },
      },
      emit: (e) => {
        events.push(e);
        // the run's work is done: the API server stops answering just before its cleanup
        if (e.type === 'phase_finished' && e.phase === 'deliver') {
          void fake.setDown(true);
          if (downMs !== 'for good') setTimeout(() => void fake.setDown(false), downMs);
        }
      },
    });
    return { outcome, events };
  };

  it('a short outage at the end of a run is ridden out: the pod and its policy are removed', async () => {
    const { outcome, events } = await runWithOutage(1_500);
    expect(outcome.state.status).toBe('stable');
    expect(outcome.state.left_behind).toBeUndefined();
    expect(events.filter((e) => e.type === 'notice' && /left behind/.test(e.text))).toEqual([]);
    expect(fake.pods.size + fake.policies.size).toBe(0);
  });

  it('a sandbox still there after the retries is recorded, said with the gc command, and that command removes it', async () => {
    const { outcome, events } = await runWithOutage('for good', {
      sandbox: { remove_retry: 1 },
      kubernetes: { outage_retry: 1 },
    });
    await fake.setDown(false);
    expect(outcome.state.status).toBe('stable');
    const pod = outcome.state.sandbox!.container_id;
    const gcCommand = `hammer-box gc --run ${outcome.state.run_id} --engine kubernetes`;
    expect(outcome.state.left_behind).toEqual([
      { sandbox: pod, error: expect.stringMatching(/did not answer/), at: expect.any(String), gc: gcCommand },
    ]);
    const warning = events.find((e) => e.type === 'notice' && e.level === 'warning' && /left behind/.test(e.text));
    expect(warning).toMatchObject({ text: expect.stringContaining(`sandbox ${pod} was left behind`) });
    expect(warning).toMatchObject({ text: expect.stringContaining(`remove it with: ${gcCommand}`) });
    expect([...fake.pods.keys()]).toEqual([pod]);
    // what the command does: this process (the run's owner) is alive, the run is named
    const report = await gc({ env: testEnv(), flags: flags(false), runIds: [outcome.state.run_id] });
    expect(report.containers).toEqual([`pod/${pod}`]);
    expect(fake.pods.size + fake.policies.size).toBe(0);
  }, 120_000);
});

describe('doctor and gc with --engine kubernetes', () => {
  it('doctor checks the cluster, its permissions, RuntimeClass, image access and NetworkPolicy enforcement', async () => {
    const report = await doctor({
      env: testEnv(),
      flags: { ...flags(false), model: modelFlags(server).model },
    });
    const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]));
    expect(byName['cluster']).toMatchObject({ status: 'ok' });
    expect(byName['cluster']?.detail).toMatch(/^Kubernetes v1\.36\.0-fake .* context fake, namespace hb$/);
    expect(byName['permissions']).toMatchObject({ status: 'ok' });
    expect(byName['runtime class']).toMatchObject({ status: 'ok' });
    expect(byName['image access']).toMatchObject({ status: 'ok' });
    // the reference the cluster pulls: with no registry, the image's tag (loaded on the nodes)
    expect(byName['image access']?.detail).toMatch(/^the cluster pulled and ran hammer-box\/python:[0-9a-f]{12}$/);
    expect(byName['network policy']).toMatchObject({ status: 'fail' });
    expect(byName['network policy']?.hint).toMatch(/--trusted-repo/);
    // the Docker engine is there only to build images: its runtimes are not checked
    expect(byName['runtime']).toBeUndefined();
    expect(report.ok).toBe(false);
  });

  it('gc removes the pod and policy of a dead run from the cluster', async () => {
    const meta = (name: string) => ({
      name,
      labels: { 'hammer-box.managed-by': 'hammer-box', 'hammer-box.sandbox': name },
      annotations: {
        'hammer-box.run-id': 'dead-run',
        'hammer-box.owner-pid': String(2 ** 22 + 11),
        'hammer-box.owner-host': hostname(),
      },
    });
    fake.pods.set('dead', { metadata: meta('dead'), spec: {} });
    fake.policies.set('dead', { metadata: meta('dead'), spec: {} });
    const report = await gc({ env: testEnv(), flags: flags(false) });
    expect(report).toEqual({ containers: ['pod/dead'], volumes: [], networks: ['networkpolicy/dead'] });
  });
});
