// The network a dependency setup runs on: an internal bridge of its own, with no address of the
// host on it (so nothing listening on the host, its docker0 gateway included, can be reached) and
// no route out, whose only other member is the setup proxy. The proxy also sits on the default
// bridge and forwards only to the allowed registries. Both are removed when setup ends.
import { randomBytes } from 'node:crypto';
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { currentOwner, LABELS, type Owner } from '../sandbox/labels.js';
import { engineError } from './engine.js';
import { IMAGE_LABELS, MANAGED_BY } from './labels.js';
import { PROXY_PORT, proxyConfig, proxyFilter } from './proxy-config.js';

/** The proxy's log on the engine: json-file (it is read back), one file of at most 1 MiB. */
export const PROXY_LOG = { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } };

/** The label value marking setup's network and proxy (gc and tests find them by it). */
export const SETUP_PURPOSE = 'env-setup';

/**
 * Labels of what a setup makes and removes itself (its network, proxy and container): managed-by,
 * purpose, and the owning process, so `gc` removes them when that process was killed.
 */
export function setupLabels(owner: Owner = currentOwner()): Record<string, string> {
  return {
    [IMAGE_LABELS.managedBy]: MANAGED_BY,
    'hammer-box.purpose': SETUP_PURPOSE,
    [LABELS.created]: owner.now.toISOString(),
    [LABELS.ownerPid]: String(owner.pid),
    [LABELS.ownerHost]: owner.host,
  };
}

/** An open setup network: its name, the proxy URL setup uses, and how to close it. */
export interface SetupNetwork {
  name: string;
  proxyUrl: string;
  /** The proxy's log so far (to name the hosts it refused). */
  proxyLog(): Promise<string>;
  close(): Promise<void>;
}

const networkSchema = z.object({
  IPAM: z.object({ Config: z.array(z.object({ Subnet: z.string().optional() })).nullish() }),
});
const containerNetSchema = z.object({
  NetworkSettings: z.object({ Networks: z.record(z.string(), z.object({ IPAddress: z.string() })) }),
});

/** Create the internal network and start the proxy on it; closes what it made when any step fails. */
export async function openSetupNetwork(
  docker: Dockerode,
  opts: {
    proxyImage: string;
    hosts: readonly string[];
    hostEnv: NodeJS.ProcessEnv;
    /** The process gc judges the network and proxy by (default: this one). */
    owner?: Owner;
    signal?: AbortSignal;
  },
): Promise<SetupNetwork> {
  const { signal } = opts;
  const name = `hammer-box-setup-${randomBytes(6).toString('hex')}`;
  const labels = setupLabels(opts.owner);
  let network: Dockerode.Network | undefined;
  let proxy: Dockerode.Container | undefined;
  const close = async (): Promise<void> => {
    await proxy?.remove({ force: true, v: true }).catch(() => undefined);
    await network?.remove().catch(() => undefined);
  };
  try {
    network = await docker.createNetwork({
      Name: name,
      Driver: 'bridge',
      Internal: true,
      CheckDuplicate: true,
      // no address of the host on this bridge: the host's services are not reachable from it
      Options: { 'com.docker.network.bridge.inhibit_ipv4': 'true' },
      Labels: labels,
      abortSignal: signal,
    });
    const subnet = networkSchema.parse(await network.inspect()).IPAM.Config?.[0]?.Subnet;
    if (!subnet) throw new Error(`the engine gave the setup network ${name} no subnet`);
    proxy = await docker.createContainer({
      name: `${name}-proxy`,
      Image: opts.proxyImage,
      Labels: labels,
      Env: [
        `HAMMER_PROXY_CONFIG=${proxyConfig({ clientSubnet: subnet, env: opts.hostEnv })}`,
        `HAMMER_PROXY_FILTER=${proxyFilter(opts.hosts) || '^$'}`,
      ],
      HostConfig: {
        NetworkMode: 'bridge',
        ReadonlyRootfs: true,
        Tmpfs: { '/tmp': 'rw,noexec,nosuid,nodev,size=8m' },
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges:true'],
        PidsLimit: 64,
        Memory: 128 * 1024 * 1024,
        MemorySwap: 128 * 1024 * 1024,
        // its log names the hosts it refused (read when setup fails); one file of at most 1 MiB
        LogConfig: PROXY_LOG,
      },
      abortSignal: signal,
    });
    await network.connect({ Container: proxy.id });
    await proxy.start({ abortSignal: signal });
    const nets = containerNetSchema.parse(await proxy.inspect({ abortSignal: signal })).NetworkSettings.Networks;
    const ip = nets[name]?.IPAddress;
    if (!ip) throw new Error(`the setup proxy has no address on ${name}`);
    const started = proxy;
    return {
      name,
      proxyUrl: `http://${ip}:${PROXY_PORT}`,
      proxyLog: async () => {
        const raw: unknown = await started
          .logs({ stdout: true, stderr: true, tail: 2000 })
          .catch(() => Buffer.alloc(0));
        return Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw);
      },
      close,
    };
  } catch (err) {
    await close();
    throw engineError(err, 'starting the setup network and its proxy', signal);
  }
}
