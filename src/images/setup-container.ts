// The dependency setup: one throwaway container WITH network (the only one hammer-box ever
// starts with a network), run as the sandbox user with every capability dropped, the repository
// copied in as one tar stream, its output streamed; on success it is committed as the env image.
import { PassThrough, Readable } from 'node:stream';
import type Dockerode from 'dockerode';
import tar from 'tar-stream';
import { z } from 'zod';
import { HammerError, abortError, throwIfAborted } from '../errors.js';
import { engineError } from './engine.js';
import { IMAGE_LABELS, MANAGED_BY } from './labels.js';
import { ENV_ROOT, SETUP_DIR, type SetupScript } from './setup-plan.js';

/** Everything one setup needs. */
export interface SetupRequest {
  /** The image id setup starts from (the toolchain image). */
  image: string;
  /** "uid:gid" of the sandbox user. */
  user: string;
  command: string;
  script: SetupScript;
  /** Variables for setup only (proxy, CA paths, online overrides); never committed into the image. */
  env: Record<string, string>;
  /** A CA bundle to trust, written to SETUP_DIR/ca.crt. */
  caBundle?: Buffer;
  /** The repository's base commit as a tar stream, extracted into /workspace. */
  repoTar: Readable;
  timeoutMs: number;
  memoryBytes?: number;
  /** The tag and labels of the committed image. */
  tag: string;
  labels: Record<string, string>;
  /** PATH of the toolchain image (the python venv is put in front of it). */
  imagePath: string;
  onOutput?: (line: string) => void;
  signal?: AbortSignal;
}

/** Lines of setup output quoted in SETUP_FAILED. */
const TAIL_LINES = 40;

/** Where setup's CA bundle is while it runs. */
export const SETUP_CA_PATH = `${SETUP_DIR}/ca.crt`;

const commitSchema = z.object({ Id: z.string() });
const waitSchema = z.object({ StatusCode: z.number() });

/** Run setup and commit the result as `req.tag`; returns the new image id. SETUP_FAILED with the output tail when it fails. */
export async function runSetupAndCommit(docker: Dockerode, req: SetupRequest): Promise<string> {
  const { signal } = req;
  throwIfAborted(signal, 'dependency setup');
  let container: Dockerode.Container;
  try {
    container = await docker.createContainer({
      Image: req.image,
      Entrypoint: ['/bin/sh'],
      Cmd: [`${SETUP_DIR}/run.sh`],
      User: req.user,
      WorkingDir: '/workspace',
      Tty: false,
      Labels: { [IMAGE_LABELS.managedBy]: MANAGED_BY, 'hammer-box.purpose': 'env-setup' },
      HostConfig: {
        NetworkMode: 'bridge',
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges:true'],
        Privileged: false,
        Init: true,
        PidsLimit: 1024,
        ...(req.memoryBytes ? { Memory: req.memoryBytes, MemorySwap: req.memoryBytes } : {}),
        AutoRemove: false,
      },
      abortSignal: signal,
    });
  } catch (err) {
    throw engineError(err, 'creating the setup container', signal);
  }
  try {
    await put(container, setupFilesTar(req), '/', signal);
    await put(container, req.repoTar, '/workspace', signal);
    const { exitCode, tail, timedOut } = await runToEnd(docker, container, req);
    if (exitCode !== 0) {
      const why = timedOut ? `timed out after ${Math.round(req.timeoutMs / 1000)} s` : `exited with ${exitCode}`;
      throw new HammerError('SETUP_FAILED', `dependency setup (${req.command}) ${why}:\n${tail.join('\n')}`, {
        hint: timedOut
          ? 'raise [env] setup_timeout, or make the setup command faster'
          : 'fix the setup command ([env] setup_command) or the dependency files; behind a TLS-intercepting proxy set [env] ca_bundle, and HTTPS_PROXY when a proxy is needed',
      });
    }
    return await commit(container, req);
  } finally {
    await container.remove({ force: true, v: true }).catch(() => undefined);
  }
}

/** The setup's own files and the directories the sandbox user must own, as one tar for '/'. */
function setupFilesTar(req: SetupRequest): Readable {
  const [uid, gid] = req.user.split(':').map(Number) as [number, number];
  const pack = tar.pack();
  const mtime = new Date(0);
  const dir = (name: string, mode = 0o755): void => {
    pack.entry({ name: `${name.replace(/^\//, '')}/`, type: 'directory', mode, uid, gid, mtime });
  };
  const file = (name: string, content: string | Buffer, mode = 0o644): void => {
    const body = typeof content === 'string' ? Buffer.from(content) : content;
    pack.entry({ name: name.replace(/^\//, ''), type: 'file', mode, uid, gid, mtime, size: body.length }, body);
  };
  dir(ENV_ROOT);
  dir(SETUP_DIR, 0o700);
  for (const d of req.script.dirs) dir(d);
  const env: Record<string, string> = { ...req.script.env, ...req.env };
  if (req.caBundle) file(SETUP_CA_PATH, req.caBundle);
  file(
    `${SETUP_DIR}/env.sh`,
    Object.entries(env)
      .map(([k, v]) => `export ${k}=${shellQuote(v)}\n`)
      .join(''),
    0o600,
  );
  file(`${SETUP_DIR}/command.sh`, `${req.command}\n`, 0o600);
  file(`${SETUP_DIR}/run.sh`, req.script.script, 0o700);
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
    throw engineError(err, `copying into the setup container (${path})`, signal);
  }
}

/** Start the container, stream its output line by line, and wait for it (killing it at the timeout). */
async function runToEnd(
  docker: Dockerode,
  container: Dockerode.Container,
  req: SetupRequest,
): Promise<{ exitCode: number; tail: string[]; timedOut: boolean }> {
  const { signal } = req;
  const tail: string[] = [];
  const line = (text: string): void => {
    tail.push(text);
    if (tail.length > TAIL_LINES) tail.shift();
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

/** Commit the stopped container with a plain CMD, our labels and the toolchain's env changes. */
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
