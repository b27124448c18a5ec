// A fake Kubernetes API server on 127.0.0.1 for the Kubernetes backend's tests without a cluster:
// the few REST resources the backend uses (pods, network policies, events, runtime classes,
// version, access reviews), and pods/exec over real WebSockets in the channel.k8s.io subprotocols.
// Exec is scripted by the test, or (with `docker`) run for real in a container made from the pod's
// spec: a small kubelet on the Docker engine, so the backend's resident runner, tar copies and
// killer run against real processes. Every request is recorded.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type Dockerode from 'dockerode';
import { WebSocketServer, type WebSocket } from 'ws';
import { FrameDemuxer } from '../../src/sandbox/demux.js';

/** A running exec as a script sees it. */
export interface FakeExec {
  pod: string;
  argv: string[];
  stdin: boolean;
  protocol: string;
  socket: WebSocket;
  /** Send bytes on a channel (1 stdout, 2 stderr). */
  send(channel: number, data: Buffer | string): void;
  /** Send the status and close, as the kubelet does when the process ends. */
  exit(code: number): void;
  /** Send a Failure status with this message (no exit code) and close. */
  fail(message: string): void;
  /** Stdin bytes as they come; `null` once stdin was closed (v5 close frame, or the socket closing). */
  onStdin(listener: (chunk: Buffer | null) => void): void;
}

/** What the fake does. */
export interface FakeKubeOptions {
  /** Subprotocols the server accepts, best first (default v5 then v4). */
  protocols?: string[];
  /** Run execs in Docker containers made from the pods (a small kubelet); else `exec` scripts them. */
  docker?: Dockerode;
  /** Handle an exec (scripted mode, or to override one in Docker mode by returning true). */
  exec?: (e: FakeExec) => boolean | void;
  /** Refuse the exec upgrade with this status and Status message. */
  refuseExec?: { code: number; message: string; reason?: string };
  /** Answer pod creation with this status and Status message (a quota, an admission refusal). */
  refusePod?: { code: number; message: string; reason?: string };
  /** Change a created pod as a mutating webhook would, or set its status (ImagePullBackOff, ...). */
  mutatePod?: (pod: FakePod) => void;
  /** The status a pod reports (default: Running once created, from Docker's state in Docker mode). */
  podStatus?: (pod: FakePod) => unknown;
  /** Events of a pod. */
  events?: (pod: string) => unknown[];
  runtimeClasses?: { name: string; handler: string }[];
  /** A real kubelet's timing in Docker mode (see FakeKubelet); default: every exec at once. */
  kubelet?: FakeKubelet;
}

/**
 * How a real kubelet's exec looks from inside the pod: the process starts after the hop from the API
 * server through the kubelet to the container runtime (so two execs opened together start in either
 * order), and its stdin arrives later still (streamed through the API server), so a tar reading
 * the repository lives a while before its bytes come.
 */
export interface FakeKubelet {
  /** Each exec starts after a delay drawn from 0 to this many ms. */
  startJitterMs: number;
  /** Stdin reaches the process this many ms after it was sent. */
  stdinLatencyMs: number;
  /** Seed of the draws, so a run can be repeated. */
  seed: number;
}

/** A pod the fake holds (its manifest as sent, plus what the fake adds). */
export type FakePod = {
  metadata: Record<string, Json>;
  spec: Record<string, Json>;
  status?: unknown;
  container?: string;
  /** The pod's own cgroup (holding the pids limit), when the fake could make one. */
  cgroup?: string;
};

/** The fake server: its URL, a kubeconfig for it, what it holds and what it was asked. */
export interface FakeKube {
  url: string;
  /** A kubeconfig (YAML) with one context, "fake", for this server, namespace "hb". */
  kubeconfig: string;
  pods: Map<string, FakePod>;
  policies: Map<string, { metadata: Record<string, Json>; spec: unknown }>;
  requests: { method: string; path: string }[];
  execs: FakeExec[];
  /**
   * Stop answering (as a stopped API server: connections refused, open ones and every exec stream
   * cut) or answer again on the same port. The pods keep running.
   */
  setDown(down: boolean): Promise<void>;
  close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests as the client sent them (JSON), read and edited freely
type Json = any;

const NS = 'hb';

/** The pids limit the fake's kubelet gives every pod: the podPidsLimit docs/kubernetes.md suggests. */
export const FAKE_POD_PIDS_LIMIT = 1024;

/** Where cgroup v1 keeps its pids hierarchy; the fake's pod cgroups go under every hierarchy's root. */
const CGROUP_ROOT = '/sys/fs/cgroup';

/** Start a fake API server. */
export async function startFakeKube(options: FakeKubeOptions = {}): Promise<FakeKube> {
  const pods = new Map<string, FakePod>();
  const policies = new Map<string, { metadata: Record<string, Json>; spec: unknown }>();
  const requests: { method: string; path: string }[] = [];
  const execs: FakeExec[] = [];
  const draw = seeded(options.kubelet?.seed ?? 1);
  /** The engine keeps cgroup v1 with the cgroupfs driver, where the fake can make pod cgroups. */
  let cgroupfs: Promise<boolean> | undefined;
  const protocols = options.protocols ?? ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => protocols.find((p) => offered.has(p)) ?? false,
  });

  const json = (res: ServerResponse, code: number, body: unknown): void => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const status = (res: ServerResponse, code: number, message: string, reason = 'Failure'): void =>
    json(res, code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code });
  const body = async (req: IncomingMessage): Promise<Json> => {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    return parts.length ? JSON.parse(Buffer.concat(parts).toString('utf8')) : undefined;
  };
  const selects = (labels: Record<string, string> | undefined, selector: string | null): boolean =>
    !selector ||
    selector.split(',').every((term) => {
      const [k, v] = term.split('=');
      return (labels ?? {})[k ?? ''] === v;
    });

  const podView = async (pod: FakePod): Promise<FakePod> => {
    if (options.podStatus) return { ...pod, status: options.podStatus(pod) };
    if (!options.docker || !pod.container) return { ...pod, status: runningStatus() };
    const info = (await options.docker.getContainer(pod.container).inspect()) as Json;
    if (info.State.Running) return { ...pod, status: runningStatus() };
    return {
      ...pod,
      status: {
        phase: 'Failed',
        conditions: [{ type: 'PodScheduled', status: 'True' }],
        containerStatuses: [
          {
            name: 'sandbox',
            ready: false,
            restartCount: 0,
            image: pod.spec.containers[0].image,
            imageID: '',
            state: {
              terminated: { exitCode: info.State.ExitCode, reason: info.State.OOMKilled ? 'OOMKilled' : 'Error' },
            },
          },
        ],
      },
    };
  };

  const removePod = async (name: string): Promise<boolean> => {
    const pod = pods.get(name);
    if (!pod) return false;
    pods.delete(name);
    if (options.docker && pod.container)
      await options.docker
        .getContainer(pod.container)
        .remove({ force: true })
        .catch(() => undefined);
    if (pod.cgroup) await removePodCgroup(pod.cgroup);
    return true;
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      requests.push({ method: req.method ?? '', path: url.pathname });
      const p = url.pathname;
      const m = req.method;
      const podPath = new RegExp(`^/api/v1/namespaces/${NS}/pods(?:/([^/]+))?$`).exec(p);
      const polPath = new RegExp(`^/apis/networking.k8s.io/v1/namespaces/${NS}/networkpolicies(?:/([^/]+))?$`).exec(p);
      if (p === '/version')
        return json(res, 200, { major: '1', minor: '36', gitVersion: 'v1.36.0-fake', platform: 'linux/amd64' });
      if (p === '/apis/node.k8s.io/v1/runtimeclasses')
        return json(res, 200, {
          items: (options.runtimeClasses ?? []).map((r) => ({ metadata: { name: r.name }, handler: r.handler })),
        });
      if (p === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews' && m === 'POST') {
        const review = await body(req);
        return json(res, 201, { ...review, status: { allowed: true } });
      }
      if (p === `/api/v1/namespaces/${NS}/events`) {
        const name = /involvedObject.name=([^,]+)/.exec(url.searchParams.get('fieldSelector') ?? '')?.[1] ?? '';
        return json(res, 200, { items: options.events?.(name) ?? [] });
      }
      if (podPath) {
        const name = podPath[1];
        if (m === 'POST') {
          if (options.refusePod)
            return status(res, options.refusePod.code, options.refusePod.message, options.refusePod.reason);
          const pod = (await body(req)) as FakePod;
          pod.metadata.uid = randomUUID();
          pod.metadata.creationTimestamp = new Date().toISOString();
          options.mutatePod?.(pod);
          if (options.docker) {
            cgroupfs ??= options.docker
              .info()
              .then(
                (i: { CgroupDriver?: string; CgroupVersion?: string }) =>
                  i.CgroupDriver === 'cgroupfs' && i.CgroupVersion === '1',
              )
              .catch(() => false);
            pod.cgroup = (await cgroupfs) ? ((await podCgroup(pod.metadata.name)) ?? undefined) : undefined;
            pod.container = await startContainer(options.docker, pod);
          }
          pods.set(pod.metadata.name, pod);
          return json(res, 201, pod);
        }
        if (m === 'GET' && name) {
          const pod = pods.get(name);
          return pod ? json(res, 200, await podView(pod)) : status(res, 404, `pods "${name}" not found`, 'NotFound');
        }
        if (m === 'GET') {
          const items = [...pods.values()].filter((x) =>
            selects(x.metadata.labels, url.searchParams.get('labelSelector')),
          );
          return json(res, 200, { items: await Promise.all(items.map(podView)) });
        }
        if (m === 'DELETE' && name)
          return (await removePod(name))
            ? json(res, 200, { metadata: { name } })
            : status(res, 404, `pods "${name}" not found`, 'NotFound');
      }
      if (polPath) {
        const name = polPath[1];
        if (m === 'POST') {
          const pol = await body(req);
          pol.metadata.uid = randomUUID();
          pol.metadata.creationTimestamp = new Date().toISOString();
          policies.set(pol.metadata.name, pol);
          return json(res, 201, pol);
        }
        if (m === 'GET' && !name)
          return json(res, 200, {
            items: [...policies.values()].filter((x) =>
              selects(x.metadata.labels, url.searchParams.get('labelSelector')),
            ),
          });
        if (m === 'DELETE' && name) {
          if (!policies.delete(name)) return status(res, 404, `networkpolicies "${name}" not found`, 'NotFound');
          // the garbage collector: pods the policy owns go with it
          for (const [podName, pod] of pods)
            if ((pod.metadata.ownerReferences ?? []).some((o: { name: string }) => o.name === name))
              await removePod(podName);
          return json(res, 200, { metadata: { name } });
        }
      }
      status(res, 404, `the fake has no ${m} ${p}`, 'NotFound');
    })().catch((err: unknown) => status(res, 500, String(err), 'InternalError'));
  });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ method: 'UPGRADE', path: url.pathname });
    const m = new RegExp(`^/api/v1/namespaces/${NS}/pods/([^/]+)/exec$`).exec(url.pathname);
    const refuse = (code: number, message: string, reason = 'Failure'): void => {
      const text = JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code });
      socket.end(
        `HTTP/1.1 ${code} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      );
    };
    if (options.refuseExec)
      return refuse(options.refuseExec.code, options.refuseExec.message, options.refuseExec.reason);
    const pod = m ? pods.get(decodeURIComponent(m[1] ?? '')) : undefined;
    if (!m || !pod) return refuse(404, `pods "${m?.[1] ?? ''}" not found`, 'NotFound');
    wss.handleUpgrade(req, socket, head, (ws) => {
      const exec = fakeExec(
        ws,
        pod.metadata.name,
        url.searchParams.getAll('command'),
        url.searchParams.get('stdin') === 'true',
      );
      execs.push(exec);
      if (options.exec?.(exec)) return;
      if (options.docker && pod.container)
        void bridgeToDocker(options.docker, pod.container, exec, kubeletTiming(options.kubelet, draw));
      else exec.fail('the fake has no script for this exec');
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  let down = false;
  const stop = async (): Promise<void> => {
    for (const c of wss.clients) c.terminate();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const kubeconfig = [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: fake, cluster: {server: "${url}", insecure-skip-tls-verify: true}}]`,
    'users: [{name: fake, user: {token: fake-token}}]',
    `contexts: [{name: fake, context: {cluster: fake, user: fake, namespace: ${NS}}}]`,
    'current-context: fake',
    '',
  ].join('\n');
  return {
    url,
    kubeconfig,
    pods,
    policies,
    requests,
    execs,
    setDown: async (value) => {
      if (value === down) return;
      down = value;
      if (value) await stop();
      else await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: async () => {
      for (const name of [...pods.keys()]) await removePod(name);
      if (!down) await stop();
    },
  };
}

function runningStatus() {
  return {
    phase: 'Running',
    conditions: [{ type: 'PodScheduled', status: 'True' }],
    containerStatuses: [
      {
        name: 'sandbox',
        ready: true,
        restartCount: 0,
        image: '',
        imageID: '',
        state: { running: { startedAt: new Date() } },
      },
    ],
  };
}

function fakeExec(ws: WebSocket, pod: string, argv: string[], stdin: boolean): FakeExec {
  const listeners: ((c: Buffer | null) => void)[] = [];
  // stdin that came before anyone listened (the Docker exec is still starting) is kept for the first listener
  const early: (Buffer | null)[] = [];
  let stdinClosed = false;
  const deliver = (c: Buffer | null): void => {
    if (listeners.length === 0) early.push(c);
    for (const l of listeners) l(c);
  };
  const closeStdin = (): void => {
    if (stdinClosed) return;
    stdinClosed = true;
    deliver(null);
  };
  ws.on('message', (data: Buffer) => {
    if (data[0] === 0) deliver(data.subarray(1));
    else if (data[0] === 255 && data[1] === 0 && ws.protocol === 'v5.channel.k8s.io') closeStdin();
  });
  ws.on('close', closeStdin);
  // the kubelet opens each channel with an empty message
  for (const ch of [1, 2, 3]) ws.send(Buffer.of(ch));
  const end = (statusBody: unknown): void => {
    ws.send(Buffer.concat([Buffer.of(3), Buffer.from(JSON.stringify(statusBody))]));
    ws.close(1000);
  };
  return {
    pod,
    argv,
    stdin,
    protocol: ws.protocol,
    socket: ws,
    send: (channel, data) => ws.send(Buffer.concat([Buffer.of(channel), Buffer.from(data)])),
    exit: (code) =>
      end(
        code === 0
          ? { metadata: {}, status: 'Success' }
          : {
              metadata: {},
              status: 'Failure',
              message: `command terminated with non-zero exit code: error executing command, exit code ${code}`,
              reason: 'NonZeroExitCode',
              details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
            },
      ),
    fail: (message) => end({ metadata: {}, status: 'Failure', message, reason: 'InternalError', code: 500 }),
    onStdin: (l) => {
      listeners.push(l);
      for (const c of early.splice(0)) l(c);
    },
  };
}

/** A container for a pod: its image, command, user, environment, limits and emptyDirs as tmpfs, no network. */
async function startContainer(docker: Dockerode, pod: FakePod): Promise<string> {
  const c = pod.spec.containers[0];
  const sc = c.securityContext ?? {};
  const tmpfs: Record<string, string> = {};
  for (const mount of c.volumeMounts ?? []) {
    const vol = (pod.spec.volumes ?? []).find((v: { name: string }) => v.name === mount.name);
    const size = vol?.emptyDir?.sizeLimit ? `,size=${vol.emptyDir.sizeLimit}` : '';
    // the kubelet makes emptyDirs writable for fsGroup; Docker's tmpfs takes the image directory's mode, so own it
    tmpfs[mount.mountPath] =
      `rw,exec,uid=${sc.runAsUser},gid=${pod.spec.securityContext?.fsGroup ?? sc.runAsGroup}${size}`;
  }
  const container = await docker.createContainer({
    name: `hb-fake-kube-${pod.metadata.name}`,
    Image: c.image,
    Entrypoint: c.command,
    Cmd: c.args ?? [],
    User: `${sc.runAsUser}:${sc.runAsGroup}`,
    WorkingDir: c.workingDir,
    Env: (c.env ?? [])
      .map((e: { name: string; value: string }) => `${e.name}=${e.value}`)
      .concat(['KUBERNETES_SERVICE_HOST=10.0.0.1', 'KUBERNETES_SERVICE_PORT=443']),
    Labels: { 'hammer-box-test.fake-kube': 'true' },
    HostConfig: {
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges:true'],
      Memory: Number(c.resources?.limits?.memory ?? 0),
      // a kubelet with podPidsLimit set, as docs/kubernetes.md asks of a cluster: on the pod's cgroup
      // above the container's, as a kubelet does (the container's own pids.max reads "max"); on the
      // container itself where the fake cannot make a cgroup
      ...(pod.cgroup ? { CgroupParent: `/${pod.cgroup}` } : { PidsLimit: FAKE_POD_PIDS_LIMIT }),
      Tmpfs: tmpfs,
    },
  });
  await container.start();
  return container.id;
}

/** The delays of one exec under `kubelet` (none without it). */
function kubeletTiming(kubelet: FakeKubelet | undefined, draw: () => number): { startMs: number; stdinMs: number } {
  if (!kubelet) return { startMs: 0, stdinMs: 0 };
  return { startMs: Math.floor(draw() * kubelet.startJitterMs), stdinMs: kubelet.stdinLatencyMs };
}

/** A seeded generator of numbers in [0, 1) (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Run an exec in the pod's container, its stdio over the WebSocket, its exit code as the status. */
async function bridgeToDocker(
  docker: Dockerode,
  containerId: string,
  exec: FakeExec,
  timing: { startMs: number; stdinMs: number },
): Promise<void> {
  try {
    if (timing.startMs > 0) await new Promise((r) => setTimeout(r, timing.startMs));
    const e = await docker.getContainer(containerId).exec({
      Cmd: exec.argv,
      AttachStdin: exec.stdin,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    });
    const stream: Duplex = await e.start({ hijack: true, stdin: exec.stdin });
    const demux = new FrameDemuxer((name, payload) => exec.send(name === 'stdout' ? 1 : 2, payload));
    stream.on('data', (c: Buffer) => demux.push(c));
    const toProcess = (chunk: Buffer | null): void => void (chunk === null ? stream.end() : stream.write(chunk));
    // equal delays fire in the order they were set, so stdin keeps its order
    exec.onStdin((chunk) =>
      timing.stdinMs > 0 ? setTimeout(() => toProcess(chunk), timing.stdinMs) : toProcess(chunk),
    );
    exec.socket.on('close', () => stream.destroy());
    await new Promise<void>((resolve) => {
      stream.once('end', resolve);
      stream.once('close', resolve);
      stream.once('error', () => resolve());
    });
    let info = (await e.inspect()) as { Running: boolean; ExitCode: number | null };
    for (let i = 0; info.Running && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 10));
      info = await e.inspect();
    }
    if (exec.socket.readyState === exec.socket.OPEN) exec.exit(info.ExitCode ?? 1);
  } catch (err) {
    if (exec.socket.readyState === exec.socket.OPEN) exec.fail(String(err));
  }
}

/**
 * A pod cgroup with pids.max = FAKE_POD_PIDS_LIMIT, as a kubelet makes one (cgroup v1 with the
 * cgroupfs driver, written as root); its name, or null where it cannot be made (the containers then
 * carry the limit themselves).
 */
async function podCgroup(pod: string): Promise<string | null> {
  const name = `hb-fake-kube-${pod}`;
  const pids = join(CGROUP_ROOT, 'pids');
  if (!existsSync(join(pids, 'pids.max')) && !existsSync(join(pids, 'cgroup.procs'))) return null;
  try {
    await mkdir(join(pids, name));
    await writeFile(join(pids, name, 'pids.max'), `${FAKE_POD_PIDS_LIMIT}\n`);
    return name;
  } catch {
    await rmdir(join(pids, name)).catch(() => undefined);
    return null;
  }
}

/** Remove a pod cgroup from every hierarchy the engine made it in (its containers are gone). */
async function removePodCgroup(name: string): Promise<void> {
  const controllers = await readdir(CGROUP_ROOT).catch(() => [] as string[]);
  for (const c of controllers) await rmdir(join(CGROUP_ROOT, c, name)).catch(() => undefined);
}
