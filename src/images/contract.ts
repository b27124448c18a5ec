// The image contract: what any image (a toolchain image or a user's own) must provide for the
// runner and the sandbox. Checked in a throwaway, network-less container as the sandbox user.
import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { HammerError, throwIfAborted } from '../errors.js';
import { engineError, inspectImage, statusCodeOf } from './engine.js';

/** Everything the contract requires, as stable tokens. */
export const CONTRACT_ITEMS = {
  sh: 'a POSIX shell at /bin/sh',
  git: 'git',
  tar: 'tar',
  timeout: 'timeout (GNU coreutils)',
  coreutils: 'coreutils (mkdir, chmod, rm, cat)',
  workspace: 'a /workspace directory',
  'workspace-writable': '/workspace writable by the sandbox user',
  'non-root': 'a non-root sandbox user',
} as const;

/** One requirement of the contract. */
export type ContractItem = keyof typeof CONTRACT_ITEMS;

const itemSchema = z.enum(Object.keys(CONTRACT_ITEMS) as [ContractItem, ...ContractItem[]]);

/** The probe run inside the image; prints one line naming only tokens of CONTRACT_ITEMS. */
export const CONTRACT_PROBE = [
  'm=',
  'for c in git tar timeout; do command -v "$c" >/dev/null 2>&1 || m="$m,$c"; done',
  'for c in mkdir chmod rm cat; do command -v "$c" >/dev/null 2>&1 || { m="$m,coreutils"; break; }; done',
  'if [ -d /workspace ]; then',
  '  t=/workspace/.hammer-contract.$$',
  '  if (: >"$t") 2>/dev/null; then rm -f "$t"; else m="$m,workspace-writable"; fi',
  'else m="$m,workspace"; fi',
  '[ "$(id -u)" != 0 ] || m="$m,non-root"',
  'printf "\\nHAMMER_CONTRACT missing=%s\\n" "${m#,}"',
].join('\n');

/** Parse the probe's stdout: the missing items, or undefined when it printed no valid line. */
export function parseContractOutput(stdout: string): ContractItem[] | undefined {
  const line = stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('HAMMER_CONTRACT missing='));
  if (line === undefined) return undefined;
  const list = line.slice('HAMMER_CONTRACT missing='.length).trim();
  if (list === '') return [];
  const parsed = z.array(itemSchema).safeParse(list.split(','));
  return parsed.success ? parsed.data : undefined;
}

/** The outcome of a contract check. */
export interface ContractReport {
  image: string;
  missing: ContractItem[];
  /** Human descriptions of what is missing. */
  problems: string[];
}

/** Check `image` against the contract, running as `user` ("uid:gid"). Throws only for engine trouble. */
export async function checkImageContract(
  docker: Dockerode,
  image: string,
  options: { user?: string; signal?: AbortSignal } = {},
): Promise<ContractReport> {
  const { signal } = options;
  const user = options.user ?? '10001:10001';
  if (!(await inspectImage(docker, image, signal))) {
    throw new HammerError('IMAGE_MISSING', `the image ${image} is not in the engine`, { hint: `docker pull ${image}` });
  }
  throwIfAborted(signal, 'checking the image contract');
  const report = (missing: ContractItem[]): ContractReport => ({
    image,
    missing,
    problems: missing.map((m) => CONTRACT_ITEMS[m]),
  });
  let container: Dockerode.Container;
  try {
    container = await docker.createContainer({
      Image: image,
      Entrypoint: ['/bin/sh', '-c'],
      Cmd: [CONTRACT_PROBE],
      User: user,
      WorkingDir: '/',
      Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'HOME=/tmp', 'LC_ALL=C'],
      Labels: { 'hammer-box.managed-by': 'hammer-box', 'hammer-box.purpose': 'contract-check' },
      HostConfig: { NetworkMode: 'none', CapDrop: ['ALL'], SecurityOpt: ['no-new-privileges'], AutoRemove: false },
      abortSignal: signal,
    });
  } catch (err) {
    throw engineError(err, `checking the contract of ${image}`, signal);
  }
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true, abortSignal: signal });
    const out: Buffer[] = [];
    const stdout = new PassThrough().on('data', (c: Buffer) => out.push(c));
    docker.modem.demuxStream(stream, stdout, new PassThrough().resume());
    const ended = new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', () => resolve());
    });
    try {
      await container.start({ abortSignal: signal });
    } catch (err) {
      // No /bin/sh: the engine cannot even start the probe.
      if (statusCodeOf(err) !== undefined && /no such file|not found|executable file/i.test(String(err))) {
        return report(['sh']);
      }
      throw err;
    }
    await container.wait({ abortSignal: signal });
    await ended;
    const missing = parseContractOutput(Buffer.concat(out).toString());
    return report(missing ?? ['sh']);
  } catch (err) {
    throw engineError(err, `checking the contract of ${image}`, signal);
  } finally {
    await container.remove({ force: true }).catch(() => {});
  }
}

/** Like checkImageContract, but IMAGE_CONTRACT naming exactly what is missing. */
export async function assertImageContract(
  docker: Dockerode,
  image: string,
  options: { user?: string; signal?: AbortSignal } = {},
): Promise<void> {
  const report = await checkImageContract(docker, image, options);
  if (report.missing.length > 0) {
    throw new HammerError('IMAGE_CONTRACT', `the image ${image} lacks: ${report.problems.join('; ')}`, {
      hint: 'install what is missing in your image (see docs/environments.md, "Bring your own image"), or use a toolchain image',
    });
  }
}
