// Where a dependency setup may write, with the ceilings the user sets ([env] setup_write_size):
// /tmp, /workspace and the dependency directories are each a tmpfs of that size, so a setup that
// tries to fill the host's disk gets "no space left" instead. A tmpfs volume forgets its files when
// the last container using it stops, and the files are copied in before setup starts and read
// back after it ends, so a keeper container (our idle process, no network, no capability, a
// read-only root) holds the volumes mounted from before setup starts until they are removed; the
// carried directories are read from it. With a size of 0 the places are plain disk volumes without
// a cap, as anonymous volumes of the setup container. The engine keeps no log of setup's output
// (hammer-box reads it through the attached stream), so printing gigabytes fills no disk either.
import { randomBytes } from 'node:crypto';
import type Dockerode from 'dockerode';
import { engineError, statusCodeOf } from './engine.js';
import { ENV_ROOT } from './setup-plan.js';

/** No log on the engine's disk: the output is read through the attached stream. */
export const NO_ENGINE_LOG = { Type: 'none', Config: {} } as const;

/** The writable places of the setup container, ready to mount, and how to remove them. */
export interface SetupSpace {
  /** Mounts of /workspace and the dependency directories. */
  mounts: Dockerode.MountSettings[];
  /** The /tmp tmpfs, when capped. */
  tmpfs: Record<string, string>;
  /** The running keeper the carried directories are read from (null: read them from the setup container). */
  keeper: Dockerode.Container | null;
  /** Remove the keeper and the volumes (after the setup container is gone); never throws. */
  remove(): Promise<void>;
}

/** The tmpfs mount options of a setup place of `bytes`. */
export function setupTmpfsOptions(bytes: number, owner: { uid: number; gid: number }, mode = '0755'): string {
  return `size=${bytes},uid=${owner.uid},gid=${owner.gid},mode=${mode}`;
}

/** Create the places a setup writes (see the file's comment); `writeBytes` 0: uncapped disk volumes. */
export async function openSetupSpace(
  docker: Dockerode,
  opts: {
    image: string;
    writeBytes: number;
    owner: { uid: number; gid: number };
    labels: Record<string, string>;
    signal?: AbortSignal;
  },
): Promise<SetupSpace> {
  const { signal } = opts;
  if (opts.writeBytes <= 0) {
    // anonymous volumes (no source), removed with the setup container
    return {
      mounts: ['/workspace', '/tmp', ENV_ROOT].map((Target) => ({ Type: 'volume' as const, Source: '', Target })),
      tmpfs: {},
      keeper: null,
      remove: async () => undefined,
    };
  }
  const name = `hammer-box-setup-${randomBytes(6).toString('hex')}`;
  const places = [
    // the repository's files and node_modules, owned by the sandbox user as the image's /workspace is
    { Target: '/workspace', Source: `${name}-workspace`, owner: opts.owner },
    // root-owned like the image's tree: setup writes the directories hammer-box made for it there
    { Target: ENV_ROOT, Source: `${name}-deps`, owner: { uid: 0, gid: 0 } },
  ];
  const volumes: string[] = [];
  let keeper: Dockerode.Container | null = null;
  const remove = async (): Promise<void> => {
    await keeper?.remove({ force: true }).catch(() => undefined);
    // a volume is in use until the engine has let go of every container that had it: a few tries
    for (const v of volumes) {
      for (let i = 0; i < 5; i++) {
        const gone = await docker
          .getVolume(v)
          .remove()
          .then(
            () => true,
            (err: unknown) => statusCodeOf(err) === 404,
          );
        if (gone) break;
        await new Promise((r) => setTimeout(r, 200 * 2 ** i));
      }
    }
  };
  try {
    for (const p of places) {
      await docker.createVolume({
        Name: p.Source,
        Driver: 'local',
        DriverOpts: { type: 'tmpfs', device: 'tmpfs', o: setupTmpfsOptions(opts.writeBytes, p.owner) },
        Labels: opts.labels,
        abortSignal: signal,
      } as Dockerode.VolumeCreateOptions);
      volumes.push(p.Source);
    }
    keeper = await docker.createContainer({
      name: `${name}-keeper`,
      Image: opts.image,
      Entrypoint: [],
      Cmd: ['sleep', 'infinity'],
      User: '65534:65534',
      Labels: opts.labels,
      NetworkDisabled: true,
      HostConfig: {
        NetworkMode: 'none',
        ReadonlyRootfs: true,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges:true'],
        PidsLimit: 8,
        Memory: 64 * 1024 * 1024,
        LogConfig: NO_ENGINE_LOG,
        Mounts: places.map((p) => ({ Type: 'volume' as const, Source: p.Source, Target: p.Target, ReadOnly: true })),
      },
      abortSignal: signal,
    });
    await keeper.start({ abortSignal: signal });
    return {
      mounts: places.map((p) => ({ Type: 'volume' as const, Source: p.Source, Target: p.Target })),
      tmpfs: { '/tmp': `rw,nosuid,nodev,size=${opts.writeBytes},mode=1777` },
      keeper,
      remove,
    };
  } catch (err) {
    await remove();
    throw engineError(err, 'creating the places dependency setup writes', signal);
  }
}
