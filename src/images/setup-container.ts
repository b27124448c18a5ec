// The dependency setup: one throwaway container on the setup network (its only way out is the
// setup proxy), run as the sandbox user with every capability dropped and a READ-ONLY root: it can
// write only /workspace, /tmp and the toolchain's dependency directories, each a place of its own
// with a size the user sets (see setup-space.ts), and the engine keeps no log of its output.
// What it wrote to the dependency directories, and nothing else, is then carried into a fresh
// container of the toolchain image (at most [env] max_image_size bytes) and committed as the env
// image. Whatever fails, nothing of the setup is left: no container, volume or image.
import { PassThrough, Readable } from 'node:stream';
import type Dockerode from 'dockerode';
import tar from 'tar-stream';
import { z } from 'zod';
import { HammerError, abortError, throwIfAborted } from '../errors.js';
import { carryArchive, type CarryStats } from './env-carry.js';
import { engineError, statusCodeOf } from './engine.js';
import { refusedHosts } from './proxy-config.js';
import {
  describeSteps,
  hintFor,
  kindText,
  SetupLog,
  withoutUsageText,
  type SetupStepRecord,
  type SkippedRequirement,
} from './setup-failure.js';
import { ENV_ROOT, SETUP_DIR, type SetupRecipe, type SetupScript } from './setup-plan.js';
import { setupLabels } from './setup-network.js';
import { NO_ENGINE_LOG, openSetupSpace } from './setup-space.js';

/** Everything one setup needs. */
export interface SetupRequest {
  /** The image id setup starts from (the toolchain image). */
  image: string;
  /** "uid:gid" of the sandbox user. */
  user: string;
  recipe: SetupRecipe;
  script: SetupScript;
  /** Variables for setup only (proxy, CA paths); never committed into the image. */
  env: Record<string, string>;
  /** A CA bundle to trust, written to SETUP_DIR/ca.crt. */
  caBundle?: Buffer;
  /** The repository's files for setup as a tar stream, extracted into /workspace. */
  repoTar: Readable;
  /** The setup network (see setup-network.ts). */
  network: string;
  /** The proxy's log, read when setup fails (to name refused hosts). */
  proxyLog?: () => Promise<string>;
  timeoutMs: number;
  memoryBytes?: number;
  /** The size of each place setup writes ([env] setup_write_size); 0: disk volumes without a cap. */
  writeBytes: number;
  /** The most bytes of files carried into the env image ([env] max_image_size). */
  maxImageBytes: number;
  /** The tag and labels of the committed image. */
  tag: string;
  labels: Record<string, string>;
  /** PATH of the toolchain image (the python venv is put in front of it). */
  imagePath: string;
  onOutput?: (line: string) => void;
  signal?: AbortSignal;
}

/** What a setup made. */
export interface SetupResult {
  /** The committed env image, or null when setup installed nothing (the toolchain image serves). */
  id: string | null;
  /** The steps it announced (python's default), with how each ended. */
  steps: SetupStepRecord[];
  /** What an offline best effort skipped (also a label of the committed image). */
  skipped: SkippedRequirement[];
  /** What setup installed differently from the repository's lockfile, and why (also a label). */
  drift: string[];
  carried: CarryStats;
}

/** The env image label listing the requirements an offline best effort skipped ("flake8,build"). */
export const SKIPPED_LABEL = 'hammer-box.setup-skipped';
/** The env image label holding setup's drift lines, as a JSON array of strings. */
export const DRIFT_LABEL = 'hammer-box.setup-drift';

/** Lines of setup output quoted in SETUP_FAILED, and the lines kept to choose them from (npm's usage text is left out). */
const TAIL_LINES = 40;
const RAW_TAIL_LINES = 400;

/** Where setup's CA bundle is while it runs. */
export const SETUP_CA_PATH = `${SETUP_DIR}/ca.crt`;

/** The writable places of the setup container (volumes; everything else is read-only). */
export const SETUP_MOUNTS = ['/workspace', '/tmp', ENV_ROOT] as const;

/** Files the engine itself mounts into every container (their mount points show as changes). */
const ENGINE_MOUNTS = [
  '/usr/sbin/docker-init',
  '/etc/hosts',
  '/etc/hostname',
  '/etc/resolv.conf',
  '/.dockerenv',
  '/dev',
  '/proc',
  '/sys',
];

const commitSchema = z.object({ Id: z.string() });
const waitSchema = z.object({ StatusCode: z.number() });
const stateSchema = z.object({ State: z.object({ OOMKilled: z.boolean().optional() }) });
const changesSchema = z.array(z.object({ Path: z.string(), Kind: z.number() })).nullable();
const inspectSchema = z.object({
  HostConfig: z.object({
    ReadonlyRootfs: z.boolean().optional(),
    NetworkMode: z.string().optional(),
    CapDrop: z.array(z.string()).nullish(),
  }),
});

/** Run setup and commit what it installed as `req.tag`. SETUP_FAILED with the steps and the output tail when it fails. */
export async function runSetupAndCommit(docker: Dockerode, req: SetupRequest): Promise<SetupResult> {
  const { signal } = req;
  throwIfAborted(signal, 'dependency setup');
  const labels = setupLabels();
  const [uid, gid] = req.user.split(':').map(Number) as [number, number];
  const space = await openSetupSpace(docker, {
    image: req.image,
    writeBytes: req.writeBytes,
    owner: { uid, gid },
    labels,
    ...(signal ? { signal } : {}),
  });
  let container: Dockerode.Container;
  // what setup writes to a tmpfs is held in memory: room for it besides the processes' own
  const memory = req.memoryBytes ? req.memoryBytes + Math.max(0, req.writeBytes) : undefined;
  try {
    container = await docker.createContainer({
      Image: req.image,
      Entrypoint: ['/bin/sh'],
      Cmd: [`${SETUP_DIR}/run.sh`],
      User: req.user,
      WorkingDir: '/workspace',
      Tty: false,
      Labels: labels,
      HostConfig: {
        NetworkMode: req.network,
        ReadonlyRootfs: true,
        Mounts: space.mounts,
        ...(Object.keys(space.tmpfs).length > 0 ? { Tmpfs: space.tmpfs } : {}),
        LogConfig: NO_ENGINE_LOG,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges:true'],
        Privileged: false,
        Init: true,
        PidsLimit: 1024,
        ...(memory ? { Memory: memory, MemorySwap: memory } : {}),
        AutoRemove: false,
      },
      abortSignal: signal,
    });
  } catch (err) {
    await space.remove();
    throw engineError(err, 'creating the setup container', signal);
  }
  try {
    await assertSetupHardening(container, req.network, signal);
    await put(container, setupFilesTar(req), ENV_ROOT, signal);
    await put(container, req.repoTar, '/workspace', signal);
    const log = new SetupLog();
    const { exitCode, tail, timedOut } = await runToEnd(docker, container, req, log);
    if (exitCode !== 0)
      throw await setupFailure(req, log, tail, timedOut ? null : exitCode, await oomKilled(container, signal));
    await assertOnlyMountsChanged(container, signal);
    const skipped = log.skipped();
    const drift = log.drift();
    const labels = {
      ...req.labels,
      ...(skipped.length > 0 ? { [SKIPPED_LABEL]: skippedLabel(skipped) } : {}),
      ...(drift.length > 0 ? { [DRIFT_LABEL]: JSON.stringify(drift) } : {}),
    };
    const made = await carryAndCommit(docker, space.keeper ?? container, { ...req, labels });
    return { ...made, steps: log.records(), skipped, drift };
  } finally {
    await container.remove({ force: true, v: true }).catch(() => undefined);
    await space.remove();
  }
}

/** The skipped label's value: the names, comma-separated, cut to a readable length. */
function skippedLabel(skipped: readonly SkippedRequirement[]): string {
  const text = skipped.map((s) => s.name).join(',');
  return text.length <= 1000 ? text : text.slice(0, text.lastIndexOf(',', 1000));
}

/** SANDBOX_HARDENING unless the engine applied the read-only root, the setup network and the dropped capabilities. */
async function assertSetupHardening(
  container: Dockerode.Container,
  network: string,
  signal?: AbortSignal,
): Promise<void> {
  let raw: unknown;
  try {
    raw = await container.inspect({ abortSignal: signal });
  } catch (err) {
    throw engineError(err, 'inspecting the setup container', signal);
  }
  const hc = inspectSchema.parse(raw).HostConfig;
  const missing = [
    hc.ReadonlyRootfs === true ? null : 'a read-only root filesystem',
    hc.NetworkMode === network ? null : `the setup network ${network}`,
    (hc.CapDrop ?? []).some((c) => c.toUpperCase() === 'ALL') ? null : 'no capabilities',
  ].filter((m): m is string => m !== null);
  if (missing.length > 0)
    throw new HammerError('SANDBOX_HARDENING', `the engine did not give the setup container ${missing.join(', ')}`, {
      hint: 'check the engine (hammer-box doctor); setup does not run without them',
    });
}

/**
 * Refuse to commit when anything changed outside the writable mounts (with a read-only root
 * nothing can; this catches an engine that did not enforce it). The mount points and their
 * parents appear as changes of their own and are allowed.
 */
async function assertOnlyMountsChanged(container: Dockerode.Container, signal?: AbortSignal): Promise<void> {
  let raw: unknown;
  try {
    raw = await container.changes({ abortSignal: signal });
  } catch (err) {
    throw engineError(err, 'listing what setup changed', signal);
  }
  const allowed = (p: string): boolean =>
    SETUP_MOUNTS.some((m) => p === m || p.startsWith(`${m}/`) || m.startsWith(`${p}/`)) ||
    ENGINE_MOUNTS.some((m) => p === m || m.startsWith(`${p}/`));
  const outside = (changesSchema.parse(raw) ?? []).map((c) => c.Path).filter((p) => !allowed(p));
  if (outside.length > 0)
    throw new HammerError(
      'SETUP_FAILED',
      `dependency setup changed files outside its writable directories, so nothing is committed: ${outside.slice(0, 10).join(', ')}${outside.length > 10 ? ', ...' : ''}`,
      {
        hint: 'setup may write only /workspace, /tmp and the dependency directories; check the engine (hammer-box doctor)',
      },
    );
}

/** True when the engine says the container was killed for running out of memory. */
async function oomKilled(container: Dockerode.Container, signal?: AbortSignal): Promise<boolean> {
  const raw: unknown = await container.inspect({ abortSignal: signal }).catch(() => null);
  const parsed = stateSchema.safeParse(raw);
  return parsed.success && parsed.data.State.OOMKilled === true;
}

/**
 * Carry the dependency directories (read from `setup`, the setup container or the keeper that holds
 * its places) into a fresh container of the toolchain image and commit it (or nothing, when setup
 * installed nothing). More than req.maxImageBytes of files is SETUP_FAILED, and nothing is committed.
 */
async function carryAndCommit(
  docker: Dockerode,
  setup: Dockerode.Container,
  req: SetupRequest,
): Promise<{ id: string | null; carried: CarryStats }> {
  const { signal } = req;
  const [uid, gid] = req.user.split(':').map(Number) as [number, number];
  let target: Dockerode.Container;
  try {
    target = await docker.createContainer({
      Image: req.image,
      Entrypoint: ['/bin/true'],
      Cmd: [],
      // gc removes it, as the setup container, when hammer-box is killed while it exists
      Labels: setupLabels(),
      HostConfig: { NetworkMode: 'none', LogConfig: NO_ENGINE_LOG },
      abortSignal: signal,
    });
  } catch (err) {
    throw engineError(err, 'creating the env image container', signal);
  }
  try {
    const total: CarryStats = { entries: 0, dropped: 0, significant: 0, bytes: 0 };
    for (const dir of req.script.carried) {
      let source: NodeJS.ReadableStream;
      try {
        source = await setup.getArchive({ path: dir.from, abortSignal: signal });
      } catch (err) {
        if (statusCodeOf(err) === 404) continue; // setup did not make it
        throw engineError(err, `reading ${dir.from} from the setup container`, signal);
      }
      const carried = carryArchive(Readable.from(source as AsyncIterable<Buffer>), dir, {
        uid,
        gid,
        maxBytes: req.maxImageBytes - total.bytes,
      });
      const [stats] = await Promise.all([carried.done, put(target, carried.stream, '/', signal)]);
      total.entries += stats.entries;
      total.dropped += stats.dropped;
      total.significant += stats.significant;
      total.bytes += stats.bytes;
    }
    if (total.significant === 0) return { id: null, carried: total };
    return { id: await commit(target, req), carried: total };
  } finally {
    await target.remove({ force: true, v: true }).catch(() => undefined);
  }
}

/** The SETUP_FAILED error: which step failed and why, the hosts the proxy refused, the output's end. */
async function setupFailure(
  req: SetupRequest,
  log: SetupLog,
  tail: string[],
  exitCode: number | null,
  outOfMemory = false,
): Promise<HammerError> {
  const refused = refusedHosts((await req.proxyLog?.().catch(() => '')) ?? '');
  const records = log.records();
  const lines: string[] = [];
  let kinds;
  if (records.length > 0) {
    const described = describeSteps(records);
    lines.push(...described.lines);
    kinds = described.kinds;
  } else {
    const overall = log.overall();
    if (overall.kind !== 'unknown')
      lines.push(`  why: ${kindText(overall.kind)}${overall.evidence ? ` (${overall.evidence})` : ''}`);
    kinds = [overall.kind];
  }
  const reasons = log.reasons();
  if (reasons.length > 0) lines.unshift(`  the package manager said: ${reasons.join(' | ')}`);
  if (refused.length > 0) {
    lines.push(`  the setup proxy refused: ${refused.slice(0, 8).join(', ')} (not in the allowed registries)`);
    kinds = [...new Set(['proxy_denied' as const, ...kinds])];
  }
  if (outOfMemory) {
    lines.unshift(
      `  why: it ran out of memory (sandbox.memory${req.writeBytes > 0 ? ', plus [env] setup_write_size for the files it writes, which are held in memory' : ''})`,
    );
    kinds = ['memory' as const, ...kinds.filter((k) => k !== 'unknown')];
  }
  const why = exitCode === null ? `timed out after ${Math.round(req.timeoutMs / 1000)} s` : `exited with ${exitCode}`;
  const failedStep = records.filter((r) => r.outcome !== 'succeeded').at(-1);
  const where = failedStep ? `, last at step ${failedStep.n} (${failedStep.name})` : '';
  return new HammerError(
    'SETUP_FAILED',
    `dependency setup (${req.recipe.command}) ${why}${where}:\n${lines.length ? `${lines.join('\n')}\n` : ''}${withoutUsageText(tail).slice(-TAIL_LINES).join('\n')}`,
    {
      hint:
        exitCode === null
          ? 'raise [env] setup_timeout, or make the setup command faster'
          : kinds.map((k) => hintFor(k)).join('; also: '),
    },
  );
}

/** The setup's own files and the dependency directories the sandbox user may write, as one tar for ENV_ROOT. */
function setupFilesTar(req: SetupRequest): Readable {
  const [uid, gid] = req.user.split(':').map(Number) as [number, number];
  const pack = tar.pack();
  const mtime = new Date(0);
  const rel = (abs: string): string => abs.slice(ENV_ROOT.length + 1);
  const dir = (name: string, mode = 0o755): void => {
    pack.entry({ name: `${name}/`, type: 'directory', mode, uid, gid, mtime });
  };
  const file = (name: string, content: string | Buffer, mode = 0o644): void => {
    const body = typeof content === 'string' ? Buffer.from(content) : content;
    pack.entry({ name, type: 'file', mode, uid, gid, mtime, size: body.length }, body);
  };
  dir(rel(SETUP_DIR), 0o700);
  for (const d of req.script.carried) if (d.from.startsWith(`${ENV_ROOT}/`)) dir(rel(d.from));
  const env: Record<string, string> = { ...req.script.env, ...req.env };
  if (req.caBundle) file(rel(SETUP_CA_PATH), req.caBundle);
  file(
    `${rel(SETUP_DIR)}/env.sh`,
    Object.entries(env)
      .map(([k, v]) => `export ${k}=${shellQuote(v)}\n`)
      .join(''),
    0o600,
  );
  for (const [name, content] of Object.entries(req.script.files)) file(`${rel(SETUP_DIR)}/${name}`, content, 0o600);
  file(`${rel(SETUP_DIR)}/command.sh`, `${req.recipe.command}\n`, 0o600);
  file(`${rel(SETUP_DIR)}/run.sh`, req.script.script, 0o700);
  pack.finalize();
  return Readable.from(pack, { objectMode: false });
}

/** Quote a value for POSIX sh. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

async function put(
  container: Dockerode.Container,
  stream: NodeJS.ReadableStream,
  path: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    await container.putArchive(stream, { path, ...(signal ? { abortSignal: signal } : {}) });
  } catch (err) {
    throw engineError(err, `copying into a setup container (${path})`, signal);
  }
}

/** Start the container, stream its output line by line, and wait for it (killing it at the timeout). */
async function runToEnd(
  docker: Dockerode,
  container: Dockerode.Container,
  req: SetupRequest,
  log: SetupLog,
): Promise<{ exitCode: number; tail: string[]; timedOut: boolean }> {
  const { signal } = req;
  const tail: string[] = [];
  const line = (text: string): void => {
    tail.push(text);
    if (tail.length > RAW_TAIL_LINES) tail.shift();
    log.add(text);
    req.onOutput?.(text);
  };
  let timedOut = false;
  const kill = (): void => void container.kill().catch(() => undefined);
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, req.timeoutMs);
  signal?.addEventListener('abort', kill, { once: true });
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true, abortSignal: signal });
    const out = lineSplitter(line);
    const err = lineSplitter(line);
    docker.modem.demuxStream(stream, out.sink, err.sink);
    const ended = new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', () => resolve());
    });
    await container.start({ abortSignal: signal });
    const waited = waitSchema.parse(await container.wait({ abortSignal: signal }));
    await ended;
    out.flush();
    err.flush();
    if (signal?.aborted) throw abortError(signal, 'dependency setup');
    return { exitCode: waited.StatusCode, tail, timedOut };
  } catch (err) {
    throw engineError(err, 'running the dependency setup', signal);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', kill);
  }
}

function lineSplitter(onLine: (line: string) => void): { sink: PassThrough; flush: () => void } {
  let buf = '';
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    const lines = buf.split(/\r?\n/);
    buf = lines.pop() ?? '';
    for (const l of lines) onLine(l);
    // a progress bar without newlines must not grow without bound
    if (buf.length > 64 * 1024) buf = buf.slice(-4096);
  });
  return { sink, flush: () => (buf !== '' ? (onLine(buf), (buf = '')) : undefined) };
}

/** Commit the env image container with a plain CMD, our labels and the toolchain's env changes. */
async function commit(container: Dockerode.Container, req: SetupRequest): Promise<string> {
  const colon = req.tag.lastIndexOf(':');
  const changes = [
    'ENTRYPOINT []',
    'CMD ["/bin/sh"]',
    'WORKDIR /workspace',
    `USER ${req.user}`,
    ...req.script.changes(req.imagePath),
    ...Object.entries({ ...req.labels, 'hammer-box.purpose': 'env' }).map(
      ([k, v]) => `LABEL ${k}=${JSON.stringify(v)}`,
    ),
  ];
  try {
    const raw: unknown = await container.commit({
      repo: req.tag.slice(0, colon),
      tag: req.tag.slice(colon + 1),
      changes,
      pause: false,
      ...(req.signal ? { abortSignal: req.signal } : {}),
    });
    return commitSchema.parse(raw).Id;
  } catch (err) {
    throw engineError(err, `committing ${req.tag}`, req.signal);
  }
}
