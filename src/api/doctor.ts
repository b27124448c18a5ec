// The programmatic API behind `hammer-box doctor`: is everything a run needs there, and if not, what to do.
import { join, resolve } from 'node:path';
import type Dockerode from 'dockerode';
import { resolveConfig } from '../config/resolve.js';
import type { Config } from '../config/schema.js';
import { HammerError, throwIfAborted } from '../errors.js';
import { BASE_TAG, checkImageContract, getToolchain, planToolchainImage } from '../images/index.js';
import { createProvider } from '../llm/index.js';
import {
  createDockerClient,
  describeEndpoint,
  DockerSandboxEngine,
  findEngine,
  pingEngine,
  type EngineInfo,
} from '../sandbox/index.js';
import {
  cgroupCheck,
  check,
  configCheck,
  doctorReport,
  engineCheck,
  failedCheck,
  modelCheck,
  runtimeCheck,
  securityChecks,
  type DoctorCheck,
  type DoctorReport,
} from './doctor-checks.js';
import { EMULATION_HINT } from '../images/architecture.js';
import { describePackageManager, type NodePackageManager } from '../images/node-package-manager.js';
import {
  availableReleases,
  describeResolved,
  resolveToolchainVersion,
  type ResolvedToolchain,
  type ToolchainRelease,
} from '../images/versions/index.js';
import { packageRoot } from '../paths.js';
import { kubernetesChecks } from './doctor-kube.js';
import { readRepoEnvironment } from './repo-environment.js';
import { imageId } from './resolve-image.js';
import { loadReplayAnswers } from './run.js';
import { openRunStore } from './run-store.js';

export type { CheckStatus, DoctorCheck, DoctorReport } from './doctor-checks.js';

/** What doctor checks against: the config layers (as for `run`), the environment, and an engine client. */
export interface DoctorOptions {
  /** A repository whose .hammer/config.toml is included (and where replay answers are looked up). */
  repo?: string;
  /** --config file. */
  configFile?: string;
  /** Config keys set on the command line (--provider, --model, --llm-url). */
  flags?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** The engine client; by default one for DOCKER_HOST (or the default socket) from `env`. */
  docker?: Dockerode;
  signal?: AbortSignal;
}

/**
 * Check the config, the engine and its security options, the images and the model server. Throws
 * CONFIG_INVALID when the config does not resolve (nothing else can be checked) and ABORTED when
 * interrupted; every other problem is a failed check in the report.
 */
export async function doctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const repo = options.repo ? resolve(options.repo) : undefined;
  const resolved = await resolveConfig({
    env,
    ...(repo ? { repo } : {}),
    ...(options.configFile ? { configFile: options.configFile } : {}),
    ...(options.flags ? { flags: options.flags } : {}),
  });
  const { config } = resolved;
  const toolchainNamed = resolved.sources.get('sandbox.toolchain') !== join(packageRoot(), 'configs', 'default.toml');
  const [engine, model] = await Promise.all([
    engineChecks(config, env, options.docker, options.signal, { repo, toolchainNamed }),
    modelChecks(config, env, repo, options.signal),
  ]);
  throwIfAborted(options.signal, 'doctor');
  return doctorReport([configCheck(resolved), ...engine.checks, model], engine.info);
}

/** The engine, its options and runtimes, then the images (only when the engine answers). */
async function engineChecks(
  config: Config,
  env: NodeJS.ProcessEnv,
  given: Dockerode | undefined,
  signal: AbortSignal | undefined,
  target: { repo: string | undefined; toolchainNamed: boolean },
): Promise<{ checks: DoctorCheck[]; info: EngineInfo | null }> {
  let info: EngineInfo;
  let docker: Dockerode;
  let address: string;
  try {
    const endpoint = findEngine(env);
    address = describeEndpoint(endpoint);
    docker = given ?? createDockerClient(env, endpoint);
    await pingEngine(docker, signal, undefined, endpoint);
    info = await new DockerSandboxEngine({ docker }).info(signal ? { signal } : {});
    const platform = info.platform ?? endpoint.platform;
    if (platform) info = { ...info, platform };
  } catch (err) {
    return { checks: [failedCheck('engine', err)], info: null };
  }
  const kubernetes = config.sandbox.engine === 'kubernetes';
  // on Kubernetes the Docker engine only builds the images: its runtimes and options do not apply
  const checks = kubernetes
    ? [engineCheck(info, address)]
    : [
        engineCheck(info, address),
        ...securityChecks(info),
        runtimeCheck(info, config.sandbox.runtime),
        cgroupCheck(info),
      ];
  checks.push(
    ...(config.sandbox.image
      ? await ownImageChecks(docker, config, signal)
      : await toolchainChecks(docker, config, target, signal)),
  );
  if (!kubernetes) return { checks, info };
  const probeImage = config.sandbox.image || (await defaultToolchainTag(docker, config, signal));
  const cluster = await kubernetesChecks(config, env, docker, probeImage, signal);
  return { checks: [...checks, ...cluster.checks], info: cluster.info ?? info };
}

/** The configured toolchain's image tag at its default version, when it is built; else null. */
async function defaultToolchainTag(docker: Dockerode, config: Config, signal?: AbortSignal): Promise<string | null> {
  try {
    const r = resolveToolchainVersion(
      getToolchain(config.sandbox.toolchain).name,
      null,
      config.sandbox.toolchain_version,
    );
    const plan = await planToolchainImage(docker, r.toolchain, { release: r.release, ...(signal ? { signal } : {}) });
    return (await imageId(docker, plan.tag)) ? plan.tag : null;
  } catch {
    return null;
  }
}

/**
 * The toolchain and version a run would get (with --repo: detected and declared as a run reads them;
 * else the configured toolchain's), then its images.
 */
async function toolchainChecks(
  docker: Dockerode,
  config: Config,
  target: { repo: string | undefined; toolchainNamed: boolean },
  signal?: AbortSignal,
): Promise<DoctorCheck[]> {
  let toolchain = config.sandbox.toolchain;
  let resolved: ResolvedToolchain;
  let pm: NodePackageManager | null = null;
  try {
    if (target.repo) {
      const env = await readRepoEnvironment(target.repo, config, {
        toolchainExplicit: target.toolchainNamed,
        ...(signal ? { signal } : {}),
      });
      if (!env.toolchain || !env.toolchainVersion) throw new HammerError('USAGE', 'no toolchain for this repository');
      toolchain = env.toolchain;
      resolved = env.toolchainVersion.resolved;
      pm = env.toolchainVersion.packageManager;
    } else {
      resolved = resolveToolchainVersion(getToolchain(toolchain).name, null, config.sandbox.toolchain_version);
    }
  } catch (err) {
    return [failedCheck('toolchain', err)];
  }
  const others = availableReleases(toolchain)
    .map((r) => r.version)
    .filter((v) => v !== resolved.release.version);
  const detail = [
    `${describeResolved(resolved)} from ${resolved.release.origin}`,
    ...(pm ? [`package manager ${describePackageManager(pm)}`] : []),
    ...(others.length ? [`also available: ${others.join(', ')}`] : []),
  ].join('; ');
  return [
    check('toolchain', 'ok', detail),
    ...(await toolchainImageChecks(docker, toolchain, resolved.release, signal)),
  ];
}

/** The base and toolchain images: missing ones are a warning, since the first run builds them. */
async function toolchainImageChecks(
  docker: Dockerode,
  toolchain: string,
  release: ToolchainRelease,
  signal?: AbortSignal,
): Promise<DoctorCheck[]> {
  const build = `run 'hammer-box images build ${toolchain}@${release.version}'`;
  try {
    getToolchain(toolchain);
  } catch (err) {
    return [failedCheck('toolchain image', err)];
  }
  let base: string | undefined;
  try {
    base = await imageId(docker, BASE_TAG);
  } catch (err) {
    return [failedCheck('base image', err)];
  }
  if (!base) {
    return [
      check(
        'base image',
        'warn',
        `${BASE_TAG} is missing; the first run makes it (pull, or debootstrap as root)`,
        "run 'hammer-box images bootstrap'",
      ),
      check(
        'toolchain image',
        'warn',
        `${toolchain}: its tag depends on the base image, which is missing`,
        `run 'hammer-box images bootstrap', then ${build}`,
      ),
    ];
  }
  const checks = [check('base image', 'ok', `${BASE_TAG} (${shortId(base)})`)];
  try {
    const plan = await planToolchainImage(docker, toolchain, { release, ...(signal ? { signal } : {}) });
    if (plan.emulation) checks.push(check('architecture', 'warn', plan.emulation, EMULATION_HINT));
    const id = await imageId(docker, plan.tag);
    checks.push(
      id
        ? check('toolchain image', 'ok', `${plan.tag} (${shortId(id)})`)
        : check(
            'toolchain image',
            'warn',
            `${plan.tag} is missing; the first run builds it (the build needs the Debian archive)`,
            build,
          ),
    );
  } catch (err) {
    checks.push(failedCheck('toolchain image', err));
  }
  return checks;
}

/** A user's own image ([sandbox] image): present (runs never pull) and meeting the image contract. */
async function ownImageChecks(docker: Dockerode, config: Config, signal?: AbortSignal): Promise<DoctorCheck[]> {
  const ref = config.sandbox.image;
  try {
    const id = await imageId(docker, ref);
    if (!id)
      return [
        check(
          'image',
          'fail',
          `${ref} is not on the engine; hammer-box never pulls during a run`,
          `pull or build it first (docker pull ${ref})`,
        ),
      ];
    const contract = await checkImageContract(docker, ref, {
      user: config.sandbox.user,
      ...(signal ? { signal } : {}),
    });
    return [
      check('image', 'ok', `${ref} (${shortId(id)})`),
      contract.missing.length === 0
        ? check(
            'image contract',
            'ok',
            `sh, git, tar, timeout, coreutils and a /workspace writable by ${config.sandbox.user}`,
          )
        : check(
            'image contract',
            'fail',
            `${ref} lacks: ${contract.problems.join('; ')}`,
            'install what is missing in your image (see docs/environments.md, "Bring your own image"), or use a toolchain image',
          ),
    ];
  } catch (err) {
    return [failedCheck('image', err)];
  }
}

/** The model server answers and has the model; for replay, the recorded answers can be read. */
async function modelChecks(
  config: Config,
  env: NodeJS.ProcessEnv,
  repo: string | undefined,
  signal?: AbortSignal,
): Promise<DoctorCheck> {
  if (config.model.provider === 'replay') {
    const dir = repo ?? process.cwd();
    try {
      const answers = await loadReplayAnswers(await openRunStore(dir, config, env), config.model.replay_run, dir);
      return check('model', 'ok', `replay: ${answers.length} recorded answers from ${config.model.replay_run}`);
    } catch (err) {
      return failedCheck('model', err);
    }
  }
  const provider = createProvider(config.model, { env });
  try {
    return modelCheck(await provider.check(signal ? { signal } : {}));
  } finally {
    await provider.close();
  }
}

function shortId(id: string): string {
  return id.replace(/^sha256:/, '').slice(0, 12);
}
