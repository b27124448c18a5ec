// Shared setup for the sandbox suites: a client, an engine, a spec with small limits, and the
// backends the contract suites run against.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubeImageRef } from '../../src/api/kube-images.js';
import {
  createDockerClient,
  DockerSandboxEngine,
  type SandboxEngine,
  type SandboxSpec,
} from '../../src/sandbox/index.js';
import { KubeApi, KubeSandboxEngine } from '../../src/sandbox/kubernetes/index.js';
import { FAKE_POD_PIDS_LIMIT, startFakeKube, type FakeKube } from '../helpers/fake-kube.js';
import { toolchainImage } from '../helpers/images.js';

/** A docker client and a sandbox engine for one test file. */
export function testEngine(options: { resident?: boolean } = {}) {
  const docker = createDockerClient();
  return { docker, engine: new DockerSandboxEngine({ docker, ...options }) };
}

/** A spec for the toolchain image with limits small enough for a shared two-core machine. */
export async function testSpec(
  overrides: Partial<SandboxSpec> = {},
  limits: Partial<SandboxSpec['limits']> = {},
): Promise<SandboxSpec> {
  return {
    image: await toolchainImage(),
    runId: `test-${randomBytes(4).toString('hex')}`,
    user: '10001:10001',
    env: { HOME: '/tmp', LANG: 'C.UTF-8' },
    ...overrides,
    limits: {
      memoryBytes: 512 * 1024 * 1024,
      nanoCpus: 1e9,
      pidsLimit: 128,
      tmpBytes: 16 * 1024 * 1024,
      workspaceBytes: 256 * 1024 * 1024,
      nofile: 1024,
      runtime: '',
      ...limits,
    },
  };
}

/**
 * A backend the sandbox contract suites run against: Docker always (through the resident runner
 * and with one exec per command), the Kubernetes backend against a fake API server whose pods are
 * Docker containers (real processes, real exec framing), and a real cluster whenever
 * HAMMER_KUBECONFIG names one (`make test-kubernetes`; HAMMER_KUBE_CONTEXT, HAMMER_KUBE_NAMESPACE
 * and HAMMER_KUBE_REGISTRY say which context, namespace and registry).
 */
export interface ContractBackend {
  name: string;
  /** An engine for one test file (and whatever it needs, closed by `close`). */
  open(): Promise<SandboxEngine>;
  close(): Promise<void>;
  /** Names of the processes a fresh sandbox runs that are not the sandbox user's commands (PID 1 first). */
  idle: string[];
  /** The pids limit is the one the spec sets (Docker), not the kubelet's podPidsLimit (Kubernetes). */
  cgroupPids: boolean;
  /** Kubernetes: the podPidsLimit the backend is told applies (the resident and runner read it). */
  podPidsLimit?: number;
  /** Commands go through the resident runner. */
  resident: boolean;
  /**
   * How much this process's memory may grow while 100 MB of output streams through (a backend that
   * buffered the output would grow by more than the output): 50 MB, more where a stand-in API server
   * runs in this process and the output passes through it too.
   */
  hostGrowthBytes: number;
}

/** The backends to run the contract against: HAMMER_BACKENDS narrows them to those whose name contains it. */
export function contractBackends(): ContractBackend[] {
  const only = process.env['HAMMER_BACKENDS'];
  const all: ContractBackend[] = [
    dockerBackend('docker (resident runner)', true),
    dockerBackend('docker (one exec per command)', false),
    fakeKubeBackend(),
    ...(process.env['HAMMER_KUBECONFIG'] ? [clusterBackend(process.env['HAMMER_KUBECONFIG'])] : []),
  ];
  return only ? all.filter((b) => b.name.includes(only)) : all;
}

function dockerBackend(name: string, resident: boolean): ContractBackend {
  return {
    name,
    open: () => Promise.resolve(testEngine({ resident }).engine),
    close: () => Promise.resolve(),
    idle: ['docker-init', 'sleep'],
    cgroupPids: true,
    resident,
    hostGrowthBytes: 50 * 1024 * 1024,
  };
}

/** The fake's kubelet: up to 150 ms to start an exec, stdin 250 ms behind (a real one measured 50-300 ms per hop). */
const FAKE_KUBELET = { startJitterMs: 150, stdinLatencyMs: 250, seed: 43 };

function fakeKubeBackend(): ContractBackend {
  let fake: FakeKube | undefined;
  let dir: string | undefined;
  return {
    name: 'kubernetes (a fake API server, pods on Docker)',
    open: async () => {
      // a kubelet's timing: execs start in either order, stdin arrives late (see FakeKubelet)
      fake = await startFakeKube({ docker: createDockerClient(), kubelet: FAKE_KUBELET });
      dir = await mkdtemp(join(tmpdir(), 'hb-fake-kube-'));
      const file = join(dir, 'kubeconfig');
      await writeFile(file, fake.kubeconfig);
      const api = KubeApi.load({ kubeconfig: file });
      return new KubeSandboxEngine({
        api,
        startTimeoutSeconds: 60,
        deadlineSeconds: 3600,
        imagePullPolicy: 'IfNotPresent',
        podPidsLimit: FAKE_POD_PIDS_LIMIT,
      });
    },
    close: async () => {
      await fake?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
    idle: ['hammer-keeper'],
    cgroupPids: false,
    podPidsLimit: FAKE_POD_PIDS_LIMIT,
    resident: true,
    // the fake API server and its Docker client run in this process: the output passes through both sides
    hostGrowthBytes: 80 * 1024 * 1024,
  };
}

/** The podPidsLimit of the cluster HAMMER_KUBECONFIG names: HAMMER_KUBE_PIDS_LIMIT, else the docs' 1024. */
const CLUSTER_PIDS_LIMIT = Number(process.env['HAMMER_KUBE_PIDS_LIMIT'] ?? 1024);

function clusterBackend(kubeconfig: string): ContractBackend {
  const registry = process.env['HAMMER_KUBE_REGISTRY'] ?? '';
  let engine: KubeSandboxEngine | undefined;
  return {
    name: 'kubernetes (the real cluster HAMMER_KUBECONFIG names)',
    open: () => {
      const api = KubeApi.load({
        kubeconfig,
        ...(process.env['HAMMER_KUBE_CONTEXT'] ? { context: process.env['HAMMER_KUBE_CONTEXT'] } : {}),
        ...(process.env['HAMMER_KUBE_NAMESPACE'] ? { namespace: process.env['HAMMER_KUBE_NAMESPACE'] } : {}),
      });
      engine = new KubeSandboxEngine({
        api,
        startTimeoutSeconds: 300,
        deadlineSeconds: 3600,
        imagePullPolicy: 'IfNotPresent',
        // the kubelet setting docs/kubernetes.md asks for (HAMMER_KUBE_PIDS_LIMIT when the cluster's differs)
        podPidsLimit: CLUSTER_PIDS_LIMIT,
        // what a run pulls: the digest `make test-kubernetes` pushed under the registry, else the loaded tag
        imageRef: kubeImageRef(createDockerClient(), registry),
      });
      return Promise.resolve(engine);
    },
    close: () => Promise.resolve(),
    idle: ['hammer-keeper'],
    cgroupPids: false,
    podPidsLimit: CLUSTER_PIDS_LIMIT,
    resident: true,
    hostGrowthBytes: 50 * 1024 * 1024,
  };
}
