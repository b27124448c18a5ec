// The Kubernetes backend against a fake API server (test/helpers/fake-kube.ts), mostly without Docker:
// pods/exec framing over real WebSockets in both subprotocols, a refused upgrade read as the API's
// Status, and what create, gc and the network probe do with each answer a cluster can give; and a
// sandbox on a v4-only server (its pods Docker containers).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runInPod } from '../../src/sandbox/kubernetes/pod-process.js';
import { networkProofStore } from '../../src/api/network-proofs.js';
import { isHammerError } from '../../src/errors.js';
import { execPath } from '../../src/sandbox/kubernetes/exec-frames.js';
import { openExec } from '../../src/sandbox/kubernetes/exec-socket.js';
import { KubeApi, KubeSandboxEngine } from '../../src/sandbox/kubernetes/index.js';
import { CONNECT_PROBE } from '../../src/sandbox/kubernetes/network-probe.js';
import type { SandboxSpec } from '../../src/sandbox/types.js';
import { createDockerClient } from '../../src/sandbox/index.js';
import {
  FAKE_POD_PIDS_LIMIT,
  startFakeKube,
  type FakeExec,
  type FakeKube,
  type FakeKubeOptions,
} from '../helpers/fake-kube.js';
import { toolchainImage } from '../helpers/images.js';

let fake: FakeKube | undefined;
let dir: string | undefined;
afterEach(async () => {
  await fake?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  fake = undefined;
});

async function cluster(options: FakeKubeOptions = {}): Promise<KubeApi> {
  fake = await startFakeKube(options);
  dir = await mkdtemp(join(tmpdir(), 'hb-kube-api-'));
  await writeFile(join(dir, 'kubeconfig'), fake.kubeconfig);
  return KubeApi.load({ kubeconfig: join(dir, 'kubeconfig') });
}

const spec: SandboxSpec = {
  image: 'hammer-box/python:abc',
  runId: 'test-run',
  user: '10001:10001',
  env: { HOME: '/tmp' },
  limits: {
    memoryBytes: 256 * 1024 ** 2,
    nanoCpus: 5e8,
    pidsLimit: 64,
    tmpBytes: 1024 ** 2,
    workspaceBytes: 16 * 1024 ** 2,
    nofile: 256,
    runtime: '',
  },
};

const engineFor = (api: KubeApi, startTimeoutSeconds = 30) =>
  new KubeSandboxEngine({ api, startTimeoutSeconds, deadlineSeconds: 600, imagePullPolicy: 'IfNotPresent' });

/** An exec script that echoes stdin to stdout once stdin closes, then says how much it got on stderr. */
const echo = (e: FakeExec): boolean => {
  const got: Buffer[] = [];
  e.onStdin((c) => {
    if (c) return void got.push(c);
    const all = Buffer.concat(got);
    e.send(1, all);
    e.send(2, `${all.length} bytes`);
    e.exit(3);
  });
  return true;
};

describe('pods/exec framing', () => {
  it('on v5, closes stdin alone and reads the output and the exit code after it', async () => {
    const api = await cluster({ exec: echo });
    fake!.pods.set('p', { metadata: { name: 'p' }, spec: {} });
    const s = await openExec(api.endpoint, execPath('hb', 'p', 'sandbox', ['cat'], true), { what: 'test' });
    expect(s.protocol).toBe('v5.channel.k8s.io');
    const out: string[] = [];
    s.onOutput((name, chunk) => out.push(`${name}:${chunk.toString()}`));
    await s.send(Buffer.from('hello '));
    await s.send(Buffer.alloc(300 * 1024, 120));
    s.end();
    expect(await s.ended).toEqual({ kind: 'exited', exitCode: 3 });
    expect(out.filter((o) => o.startsWith('stdout:')).join('').length).toBe(
      'stdout:'.length * out.filter((o) => o.startsWith('stdout:')).length + 6 + 300 * 1024,
    );
    expect(out.at(-1)).toBe(`stderr:${6 + 300 * 1024} bytes`);
    expect(fake!.execs[0]!.argv).toEqual(['cat']);
  });

  it('falls back to v4, where closing stdin closes the socket', async () => {
    let closedStdin = false;
    const api = await cluster({
      protocols: ['v4.channel.k8s.io'],
      exec: (e) => {
        e.onStdin((c) => {
          if (c === null) closedStdin = true;
        });
        e.send(1, 'ready');
        return true;
      },
    });
    fake!.pods.set('p', { metadata: { name: 'p' }, spec: {} });
    const s = await openExec(api.endpoint, execPath('hb', 'p', 'sandbox', ['x'], true), { what: 'test' });
    expect(s.protocol).toBe('v4.channel.k8s.io');
    const closed = new Promise<void>((r) => s.onClose(r));
    s.end();
    await closed;
    expect(closedStdin).toBe(true);
    // no status came: a link that ended without one is a broken sandbox, never an exit code
    const err = await s.ended.catch((e: unknown) => e);
    expect(isHammerError(err, 'SANDBOX_BROKEN')).toBe(true);
  });

  it('reads a process the runtime could not start as 127', async () => {
    const api = await cluster({
      exec: (e) => {
        e.fail('OCI runtime exec failed: exec failed: exec: "nope": executable file not found in $PATH: unknown');
        return true;
      },
    });
    fake!.pods.set('p', { metadata: { name: 'p' }, spec: {} });
    const s = await openExec(api.endpoint, execPath('hb', 'p', 'sandbox', ['nope'], false), { what: 'test' });
    expect(await s.ended).toMatchObject({ kind: 'not-started', exitCode: 127 });
  });

  it('reads a refused upgrade as the API Status: RBAC, a missing pod', async () => {
    const api = await cluster({
      refuseExec: {
        code: 403,
        message: 'pods "p" is forbidden: User "ci" cannot create resource "pods/exec"',
        reason: 'Forbidden',
      },
    });
    const err = await openExec(api.endpoint, execPath('hb', 'p', 'sandbox', ['x'], false), { what: 'running x' }).catch(
      (e: unknown) => e,
    );
    expect(isHammerError(err, 'SANDBOX_FORBIDDEN')).toBe(true);
    expect((err as Error).message).toBe(
      'running x: the cluster forbids it: pods "p" is forbidden: User "ci" cannot create resource "pods/exec"',
    );
  });

  it('refuses a server that offers no exec protocol it speaks', async () => {
    const api = await cluster({ protocols: ['v3.channel.k8s.io'] });
    fake!.pods.set('p', { metadata: { name: 'p' }, spec: {} });
    const err = await openExec(api.endpoint, execPath('hb', 'p', 'sandbox', ['x'], false), { what: 'x' }).catch(
      (e: unknown) => e,
    );
    expect(isHammerError(err)).toBe(true);
  });
});

describe('create', () => {
  it('refuses a pod a webhook loosened, and deletes it and its policy', async () => {
    const api = await cluster({
      mutatePod: (pod) => {
        pod.spec.containers[0].securityContext.readOnlyRootFilesystem = false;
        pod.spec.automountServiceAccountToken = true;
      },
    });
    const err = await engineFor(api)
      .create(spec)
      .catch((e: unknown) => e);
    expect(isHammerError(err, 'SANDBOX_HARDENING')).toBe(true);
    expect((err as Error).message).toBe(
      'sandbox pod is missing: a read-only root filesystem; automountServiceAccountToken false',
    );
    expect(fake!.pods.size).toBe(0);
    expect(fake!.policies.size).toBe(0);
  });

  it('creates the policy before the pod it owns', async () => {
    const api = await cluster({
      podStatus: () => ({
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: '0/1 nodes are available: 1 Insufficient cpu.',
          },
        ],
      }),
    });
    const err = await engineFor(api, 1)
      .create(spec)
      .catch((e: unknown) => e);
    expect(isHammerError(err, 'SANDBOX_UNSCHEDULABLE')).toBe(true);
    expect((err as Error).message).toBe(
      'no node took the sandbox pod after 1 s: 0/1 nodes are available: 1 Insufficient cpu.',
    );
    const posts = fake!.requests.filter((r) => r.method === 'POST').map((r) => r.path);
    expect(posts).toEqual(['/apis/networking.k8s.io/v1/namespaces/hb/networkpolicies', '/api/v1/namespaces/hb/pods']);
    expect(fake!.pods.size + fake!.policies.size).toBe(0);
  });

  it('says what the cluster said about an image it cannot pull', async () => {
    const api = await cluster({
      podStatus: () => ({
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'True' }],
        containerStatuses: [
          {
            name: 'sandbox',
            ready: false,
            restartCount: 0,
            image: '',
            imageID: '',
            state: {
              waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "hammer-box/python:abc"' },
            },
          },
        ],
      }),
    });
    const err = await engineFor(api)
      .create(spec)
      .catch((e: unknown) => e);
    expect(isHammerError(err, 'SANDBOX_IMAGE_PULL')).toBe(true);
    expect((err as Error).message).toContain('ImagePullBackOff: Back-off pulling image "hammer-box/python:abc"');
  });

  it('says a quota refused the pod', async () => {
    const api = await cluster({
      refusePod: {
        code: 403,
        message:
          'pods "x" is forbidden: exceeded quota: q, requested: requests.memory=256Mi, used: requests.memory=1Gi, limited: requests.memory=1Gi',
      },
    });
    const err = await engineFor(api)
      .create(spec)
      .catch((e: unknown) => e);
    expect(isHammerError(err, 'SANDBOX_QUOTA')).toBe(true);
    expect(fake!.policies.size).toBe(0);
  });
});

describe('copy in', () => {
  it('a copy the pod stops taking fails at its stall deadline, not after minutes', async () => {
    // the kubelet takes the exec and then nothing: no stdin read, no exit (the issue saw 10 minutes)
    const api = await cluster({ exec: (e) => e.argv[0] === 'tar' });
    const engine = new KubeSandboxEngine({
      api,
      startTimeoutSeconds: 30,
      deadlineSeconds: 600,
      imagePullPolicy: 'IfNotPresent',
      copyStallMs: 1_000,
    });
    const sandbox = await engine.create(spec);
    try {
      const err = await sandbox
        .copyIn({ kind: 'tar', stream: Readable.from([Buffer.alloc(8 * 1024 * 1024)]), normalized: true })
        .catch((e: unknown) => e);
      expect(isHammerError(err, 'SANDBOX_BROKEN')).toBe(true);
      expect((err as Error).message).toBe('copying the repo in stalled: nothing moved for 1 s');
    } finally {
      await sandbox.destroy();
    }
  });
});

describe('an API server outage', () => {
  it('calls and execs made while a server that answered before is down go through once it is back', async () => {
    const api = await cluster({ docker: createDockerClient() });
    const sandbox = await engineFor(api, 60).create({ ...spec, image: await toolchainImage() });
    try {
      await sandbox.putFiles('/workspace', [{ path: 'f.txt', content: 'kept\n' }]);
      expect((await sandbox.exec(['cat', '/workspace/f.txt'], { timeoutMs: 30_000 })).stdout.text).toBe('kept\n');
      // a restart while the run waits on the model: every connection cut (the idle resident's too),
      // nothing answers for a second and a half; the next command comes during it
      await fake!.setDown(true);
      setTimeout(() => void fake!.setDown(false), 1_500);
      await new Promise((r) => setTimeout(r, 300));
      const r = await sandbox.exec(['cat', '/workspace/f.txt'], { timeoutMs: 30_000 });
      expect(r).toMatchObject({ exitCode: 0, timedOut: false });
      expect(r.stdout.text).toBe('kept\n');
      expect((await sandbox.readFile('/workspace/f.txt', { maxBytes: 100 })).toString()).toBe('kept\n');
    } finally {
      await sandbox.destroy();
    }
  });
});

describe('gc', () => {
  it('deletes the pods and policies of dead owners and ended pods, never a live run', async () => {
    const api = await cluster({
      podStatus: (pod) => ({ phase: pod.metadata.name.includes('ended') ? 'Failed' : 'Running' }),
    });
    const managed = (name: string, pid: number, host: string) => ({
      metadata: {
        name,
        labels: { 'hammer-box.managed-by': 'hammer-box', 'hammer-box.sandbox': name },
        annotations: { 'hammer-box.run-id': name, 'hammer-box.owner-pid': String(pid), 'hammer-box.owner-host': host },
        creationTimestamp: '2020-01-01T00:00:00Z',
      },
      spec: {},
    });
    const me = 'this-host';
    for (const [name, pid, host] of [
      ['live', process.pid, me],
      ['dead', 2 ** 22 + 17, me],
      ['elsewhere', 2 ** 22 + 17, 'other-host'],
      ['ended', process.pid, 'other-host'],
    ] as const) {
      fake!.pods.set(name, managed(name, pid, host));
      fake!.policies.set(name, managed(name, pid, host));
    }
    const engine = new KubeSandboxEngine({
      api,
      startTimeoutSeconds: 5,
      deadlineSeconds: 600,
      imagePullPolicy: 'IfNotPresent',
      owner: () => ({ pid: process.pid, host: me, now: new Date() }),
    });
    const report = await engine.gc();
    expect(report.containers.sort()).toEqual(['pod/dead', 'pod/ended']);
    expect(report.networks.sort()).toEqual(['networkpolicy/dead', 'networkpolicy/ended']);
    expect([...fake!.pods.keys()].sort()).toEqual(['elsewhere', 'live']);
  });
});

describe('the network probe', () => {
  /** A fake whose probe connects before the policy exists, and after it when `enforced` is false. */
  const probing = (enforced: boolean | 'never-reaches') => (e: FakeExec) => {
    if (e.argv.join(' ') !== CONNECT_PROBE.join(' ')) {
      e.exit(0);
      return true;
    }
    const policy = fake!.policies.size > 0;
    e.exit(enforced === 'never-reaches' ? 1 : policy && enforced ? 1 : 0);
    return true;
  };

  it('proves a policy the cluster enforces', async () => {
    const api = await cluster({ exec: probing(true) });
    const g = await engineFor(api).guarantees({ runtime: '', image: 'hammer-box/python:abc' });
    expect(g).toMatchObject({ backend: 'kubernetes', isolation: 'container', network: 'policy' });
    expect(fake!.pods.size + fake!.policies.size).toBe(0);
  });

  it('finds a network plugin that ignores NetworkPolicy (the probe still connects): unproven', async () => {
    const api = await cluster({ exec: probing(false) });
    const g = await engineFor(api).guarantees({ runtime: '', image: 'hammer-box/python:abc' });
    expect(g.network).toBe('unproven');
    expect(g.networkDetail).toMatch(/does not enforce NetworkPolicy/);
  }, 60_000);

  it('proves nothing when the probe cannot connect even without a policy', async () => {
    const api = await cluster({ exec: probing('never-reaches') });
    const g = await engineFor(api).guarantees({ runtime: '', image: 'hammer-box/python:abc' });
    expect(g.network).toBe('unproven');
    expect(g.networkDetail).toMatch(/even without a policy/);
  });

  it("keeps a proof for its facts: later engines reuse it, until it expires or the namespace's policies change", async () => {
    const api = await cluster({ exec: probing(true) });
    const state = await mkdtemp(join(tmpdir(), 'hb-proof-state-'));
    try {
      const store = networkProofStore({ XDG_STATE_HOME: state, HOME: state });
      let now = new Date('2026-11-29T10:00:00Z');
      const engine = () =>
        new KubeSandboxEngine({
          api,
          startTimeoutSeconds: 30,
          deadlineSeconds: 600,
          imagePullPolicy: 'IfNotPresent',
          proofs: store,
          proofLifetimeMs: 3_600_000,
          now: () => now,
        });
      // every proof is one probe pod
      const probes = () => fake!.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/pods')).length;
      const ask = (fresh = false) => engine().guarantees({ runtime: '', image: 'hammer-box/python:abc', fresh });
      expect((await ask()).network).toBe('policy');
      expect(probes()).toBe(1);
      // a later run (another engine, as every run opens its own) reuses it, and says since when
      now = new Date('2026-11-29T10:20:00Z');
      const reused = await ask();
      expect(reused.network).toBe('policy');
      expect(reused.networkDetail).toMatch(/proven 20 min ago and kept/);
      expect(probes()).toBe(1);
      // another policy in the namespace may allow what the deny-all denies: proven again
      fake!.policies.set('allow-all', { metadata: { name: 'allow-all', uid: 'u1' }, spec: {} });
      await ask();
      expect(probes()).toBe(2);
      await ask();
      expect(probes()).toBe(2);
      // past its lifetime: proven again; doctor (fresh) always proves
      now = new Date('2026-11-29T11:30:00Z');
      await ask();
      expect(probes()).toBe(3);
      await ask(true);
      expect(probes()).toBe(4);
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  });

  it('calls a RuntimeClass whose handler is runsc gVisor', async () => {
    const api = await cluster({ exec: probing(true), runtimeClasses: [{ name: 'gvisor', handler: 'runsc' }] });
    const engine = engineFor(api);
    expect((await engine.info()).gvisorRuntime).toBe('gvisor');
    expect((await engine.guarantees({ runtime: 'gvisor', image: 'i' })).isolation).toBe('gvisor');
  });
});

describe("a pod's pids limit", () => {
  it('a command that cannot start for a full pod limit is SANDBOX_PIDS_FULL; killAll brings the pod back', async (ctx) => {
    const api = await cluster({ docker: createDockerClient() });
    const engine = new KubeSandboxEngine({
      api,
      startTimeoutSeconds: 60,
      deadlineSeconds: 600,
      imagePullPolicy: 'IfNotPresent',
      podPidsLimit: FAKE_POD_PIDS_LIMIT,
    });
    const sandbox = await engine.create({ ...spec, image: await toolchainImage() });
    try {
      expect((await sandbox.exec(['echo', 'warm'], { timeoutMs: 30_000 })).stdout.text).toBe('warm\n');
      const pod = fake!.pods.get(sandbox.id)!;
      // where the stand-in kubelet keeps the limit above the container (as a real one does)
      if (!pod.cgroup) return ctx.skip('the engine is not cgroup v1 with the cgroupfs driver: no pod cgroup');
      // sleepers fill every pid of the pod (bash retries its failed forks, so none comes back by itself)
      const fill = `bash -c 'while :; do sleep 1000 & done' >/dev/null 2>&1 </dev/null &\necho filling`;
      // an exec of its own, beside the resident's commands (which are killed when they end)
      const target = { endpoint: api.endpoint, namespace: api.namespace, pod: sandbox.id };
      const filler = await runInPod(target, ['sh', '-c', fill], { what: 'filling the pids' });
      expect(filler.end).toMatchObject({ exitCode: 0 });
      const current = join('/sys/fs/cgroup/pids', pod.cgroup, 'pids.current');
      for (let look = 0; Number((await readFile(current, 'utf8')).trim()) < FAKE_POD_PIDS_LIMIT; look++) {
        if (look > 600) throw new Error('the pod pids limit never filled');
        await new Promise((r) => setTimeout(r, 100));
      }
      const err = await sandbox.exec(['echo', 'alive'], { timeoutMs: 30_000 }).catch((e: unknown) => e);
      expect(isHammerError(err, 'SANDBOX_PIDS_FULL'), String(err)).toBe(true);
      expect((err as Error).message).toBe(
        `could not start echo in the sandbox: every pid of the sandbox's limit (${FAKE_POD_PIDS_LIMIT}) is taken`,
      );
      // a few pids come free (raised from the node, where the kubelet keeps the limit): the killer gets one
      await writeFile(join('/sys/fs/cgroup/pids', pod.cgroup, 'pids.max'), `${FAKE_POD_PIDS_LIMIT + 8}\n`);
      await vi.waitFor(() => sandbox.killAll(), { timeout: 60_000, interval: 500 });
      expect((await sandbox.exec(['echo', 'alive'], { timeoutMs: 30_000 })).stdout.text).toBe('alive\n');
    } finally {
      await sandbox.destroy();
    }
  }, 180_000);
});

describe('a sandbox over v4 (an API server without v5)', () => {
  it('copies files in without closing stdin alone (the tar is padded to whole records), runs and reads back', async () => {
    const api = await cluster({ docker: createDockerClient(), protocols: ['v4.channel.k8s.io'] });
    const sandbox = await engineFor(api, 60).create({ ...spec, image: await toolchainImage() });
    try {
      await sandbox.putFiles('/workspace/d', [{ path: 'f.txt', content: 'over v4\n' }]);
      const r = await sandbox.exec(['cat', '/workspace/d/f.txt'], { timeoutMs: 30_000 });
      expect(r).toMatchObject({ exitCode: 0, timedOut: false });
      expect(r.stdout.text).toBe('over v4\n');
      expect((await sandbox.readFile('/workspace/d/f.txt', { maxBytes: 100 })).toString()).toBe('over v4\n');
      expect(fake!.execs.every((e) => e.protocol === 'v4.channel.k8s.io')).toBe(true);
    } finally {
      await sandbox.destroy();
    }
  });
});
