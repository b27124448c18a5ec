// The Docker sandbox engine: creates hardened sandboxes (verified after create and start, fail
// closed), collects the garbage of dead runs, and describes the engine.
import { randomBytes } from 'node:crypto';
import type Dockerode from 'dockerode';
import type { Logger } from 'pino';
import { z } from 'zod';
import { HammerError, throwIfAborted } from '../errors.js';
import { isNotFound, messageOf, sandboxFailure } from './docker-errors.js';
import { DockerSandbox, removeVolume } from './docker-sandbox.js';
import { parseEngineInfo } from './engine-info.js';
import { execInSandbox } from './exec.js';
import { collectGarbage, pidAlive } from './gc.js';
import { containerCreateOptions, isLoopbackIpv6Refusal, volumeCreateOptions, WORKDIR } from './hardening.js';
import { currentOwner, sandboxLabels, type Owner } from './labels.js';
import { GVISOR_RUNTIME } from './guarantees.js';
import type {
  EngineInfo,
  GcReport,
  GuaranteeOptions,
  Sandbox,
  SandboxEngine,
  SandboxGuarantees,
  SandboxSpec,
} from './types.js';
import { parseSandboxUser } from './user.js';
import { verifyHardening } from './verify-hardening.js';

const ImageSchema = z.object({ Config: z.object({ Env: z.array(z.string()).nullish() }).nullish() });
const StateSchema = z.object({ State: z.object({ Running: z.boolean() }) });

/** Dependencies of the engine. `owner` is for tests that need a run owned by another process. */
export interface DockerSandboxEngineOptions {
  docker: Dockerode;
  logger?: Logger;
  owner?: () => Owner;
  /** Run commands through a resident runner in each sandbox (default true); false: one exec per command. */
  resident?: boolean;
}

/** Name-safe form of a run id for container and volume names. */
function nameSafe(runId: string): string {
  return runId.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 40) || 'run';
}

/** Sandboxes as hardened Docker containers with a labelled workspace volume. */
export class DockerSandboxEngine implements SandboxEngine {
  readonly kind = 'docker' as const;
  private readonly docker: Dockerode;
  private readonly logger: Logger | undefined;
  private readonly owner: () => Owner;
  private readonly resident: boolean;

  constructor(options: DockerSandboxEngineOptions) {
    this.docker = options.docker;
    this.logger = options.logger;
    this.owner = options.owner ?? (() => currentOwner());
    this.resident = options.resident ?? true;
  }

  /** Create, start and verify a sandbox; anything short of fully hardened is destroyed and refused. */
  async create(spec: SandboxSpec, options: { signal?: AbortSignal } = {}): Promise<Sandbox> {
    const { signal } = options;
    throwIfAborted(signal, 'creating the sandbox');
    const user = parseSandboxUser(spec.user);
    const opt = signal ? { abortSignal: signal } : {};
    const imageEnvKeys = await this.imageEnvKeys(spec.image, signal);

    const base = `hammer-box-${nameSafe(spec.runId)}-${randomBytes(4).toString('hex')}`;
    const names = { container: base, volume: `${base}-ws` };
    const labels = sandboxLabels(spec.runId, this.owner(), spec.labels);
    // The two creates are not aborted mid-request: the engine finishes a create whose client went
    // away, and the volume or container would then exist with nobody left to remove it. They are
    // quick; an abort takes effect right after each, and everything made so far is removed.
    try {
      await this.docker.createVolume(volumeCreateOptions(spec, names.volume, labels));
    } catch (err) {
      throw sandboxFailure(err, 'creating the workspace volume', signal);
    }
    let id: string | undefined;
    try {
      throwIfAborted(signal, 'creating the sandbox');
      const expectation = { spec, volumeName: names.volume, imageEnvKeys };
      const createAndStart = async (ipv6Loopback: boolean): Promise<Dockerode.Container> => {
        const made = await this.docker.createContainer(containerCreateOptions(spec, names, labels, { ipv6Loopback }));
        id = made.id;
        throwIfAborted(signal, 'creating the sandbox');
        await this.verify(made, expectation, signal);
        await made.start(opt);
        return made;
      };
      let container: Dockerode.Container;
      try {
        container = await createAndStart(true);
      } catch (err) {
        // a kernel without IPv6 has no ::1 to give: the sandbox goes on with 127.0.0.1 alone
        if (!isLoopbackIpv6Refusal(messageOf(err))) throw err;
        this.logger?.info({ runId: spec.runId }, 'the engine has no IPv6: the sandbox loopback is 127.0.0.1 only');
        if (id !== undefined) await this.docker.getContainer(id).remove({ force: true });
        id = undefined;
        container = await createAndStart(false);
      }
      const started = await container.inspect(opt);
      await this.verifyInspect(started, expectation);
      if (!StateSchema.parse(started).State.Running)
        throw new HammerError('SANDBOX_BROKEN', 'the sandbox container stopped right after it started');
      const sandbox = new DockerSandbox(this.docker, container.id, spec.runId, names.volume, user, this.logger, {
        resident: this.resident,
      });
      if (spec.limits.workspaceBytes <= 0) await this.checkWorkspaceWritable(sandbox, spec, signal);
      this.logger?.debug({ runId: spec.runId, container: container.id, volume: names.volume }, 'sandbox created');
      return sandbox;
    } catch (err) {
      await this.cleanUp(id, names.volume);
      throw sandboxFailure(err, 'creating the sandbox', signal);
    }
  }

  /** Remove containers and volumes of runs whose owner process is gone (or all of `runIds`). */
  gc(options: { runIds?: string[]; signal?: AbortSignal } = {}): Promise<GcReport> {
    const host = this.owner().host;
    return collectGarbage(
      this.docker,
      { host, isPidAlive: pidAlive, ...(options.runIds ? { runIds: options.runIds } : {}) },
      options.signal,
    );
  }

  /** What the engine is and offers. */
  async info(options: { signal?: AbortSignal } = {}): Promise<EngineInfo> {
    throwIfAborted(options.signal, 'reading the engine info');
    try {
      const [info, version] = await Promise.all([this.docker.info() as Promise<unknown>, this.docker.version()]);
      return parseEngineInfo(info, version);
    } catch (err) {
      throw sandboxFailure(err, 'reading the engine info', options.signal);
    }
  }

  /** No network but loopback (NetworkMode none, verified on every sandbox); gVisor when its runtime is asked for. */
  guarantees(options: GuaranteeOptions): Promise<SandboxGuarantees> {
    throwIfAborted(options.signal, 'reading what the engine guarantees');
    return Promise.resolve({
      backend: 'docker',
      isolation: options.runtime === GVISOR_RUNTIME ? 'gvisor' : 'container',
      network: 'none',
      networkDetail: 'NetworkMode none, verified on every sandbox: no interface but loopback',
    });
  }

  private async imageEnvKeys(image: string, signal?: AbortSignal): Promise<string[]> {
    try {
      const inspected = ImageSchema.parse(await this.docker.getImage(image).inspect());
      return (inspected.Config?.Env ?? []).map((e) => e.split('=', 1)[0] ?? '');
    } catch (err) {
      if (isNotFound(err))
        throw new HammerError('IMAGE_MISSING', `image ${image} is not on the engine`, {
          hint: "build it with 'hammer-box images build'",
          cause: err,
        });
      throw sandboxFailure(err, `inspecting image ${image}`, signal);
    }
  }

  private async verify(
    container: Dockerode.Container,
    expectation: Parameters<typeof verifyHardening>[1],
    signal?: AbortSignal,
  ): Promise<void> {
    await this.verifyInspect(await container.inspect(signal ? { abortSignal: signal } : {}), expectation);
  }

  private async verifyInspect(inspect: unknown, expectation: Parameters<typeof verifyHardening>[1]): Promise<void> {
    const missing = verifyHardening(inspect, expectation);
    if (missing.length > 0) {
      throw new HammerError('SANDBOX_HARDENING', `sandbox is missing: ${missing.join('; ')}`, {
        hint: 'the engine did not apply the hardening hammer-box asked for; check the engine version and its daemon settings',
      });
    }
  }

  /** A plain (uncapped) volume takes the image's /workspace ownership; the image must give it to the sandbox user. */
  private async checkWorkspaceWritable(sandbox: DockerSandbox, spec: SandboxSpec, signal?: AbortSignal): Promise<void> {
    const r = await execInSandbox(
      { container: this.docker.getContainer(sandbox.id), user: spec.user },
      ['test', '-w', WORKDIR],
      { timeoutMs: 30_000, ...(signal ? { signal } : {}) },
    );
    if (r.exitCode !== 0) {
      throw new HammerError(
        'IMAGE_CONTRACT',
        `${WORKDIR} is not writable by the sandbox user ${spec.user} in image ${spec.image}`,
        {
          hint: `the image must create ${WORKDIR} owned by ${spec.user}, or use a size-capped workspace (workspace_size > 0)`,
        },
      );
    }
  }

  private async cleanUp(id: string | undefined, volume: string): Promise<void> {
    try {
      if (id)
        await this.docker
          .getContainer(id)
          .remove({ force: true })
          .catch((err: unknown) => {
            if (!isNotFound(err)) throw err;
          });
      await removeVolume(this.docker, volume);
    } catch (err) {
      this.logger?.warn(
        { err: messageOf(err), container: id, volume },
        'could not clean up a refused sandbox; hammer-box gc will',
      );
    }
  }
}
