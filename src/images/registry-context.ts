// Files a toolchain image takes from npm registry packages (Node.js's official binaries, npm),
// added to its build context: each tarball is downloaded on the host and checked against the
// registry's integrity before a byte of it is packed, so the build itself needs no registry.
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { HammerError } from '../errors.js';
import type { NpmRegistry } from '../registry/npm-registry.js';
import { nodeArchitecture } from './architecture.js';
import type { ContextFile } from './build-context.js';

/** One package version and what of it goes where in the build context. */
export interface RegistryFetch {
  name: string;
  version: string;
  /** Tarball path prefixes ("package/bin/node") and the context path each goes to ("node/bin/node"). */
  take: readonly { from: string; to: string }[];
}

/** The packages a node image is built with: the node binary for the image's architecture (see architecture.ts), and npm. */
export function nodeFetches(buildArgs: Readonly<Record<string, string>>, architecture: string): RegistryFetch[] {
  const node = buildArgs['NODE_VERSION'];
  const npm = buildArgs['NPM_VERSION'];
  if (!node || !npm) throw new HammerError('INTERNAL', 'a node release without NODE_VERSION and NPM_VERSION');
  const arch = nodeArchitecture(architecture);
  return [
    { name: `node-linux-${arch}`, version: node, take: [{ from: 'package/bin/node', to: 'node/bin/node' }] },
    { name: 'npm', version: npm, take: [{ from: 'package/', to: 'node/lib/node_modules/npm/' }] },
  ];
}

/** Downloaded, verified tarballs, and their removal. */
export interface FetchedPackages {
  tarballs: { fetch: RegistryFetch; file: string }[];
  dispose(): Promise<void>;
}

/** Download every package (integrity-checked) into a private temporary directory. */
export async function downloadFetches(
  registry: NpmRegistry,
  fetches: readonly RegistryFetch[],
  onProgress?: (line: string) => void,
): Promise<FetchedPackages> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hammer-box-fetch-'));
  const dispose = (): Promise<void> => rm(dir, { recursive: true, force: true });
  try {
    const tarballs = [];
    for (const [i, fetch] of fetches.entries()) {
      onProgress?.(`fetching ${fetch.name}@${fetch.version} from ${registry.base}`);
      const pkg = await registry.packageVersion(fetch.name, fetch.version);
      const file = path.join(dir, `${i}.tgz`);
      await registry.download(pkg, file);
      tarballs.push({ fetch, file });
    }
    return { tarballs, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

/** The build context as a tar stream: the context's files, then what each fetched package gives. */
export function packWithFetches(files: readonly ContextFile[], fetched: FetchedPackages): Readable {
  const pack = tar.pack();
  const write = async (): Promise<void> => {
    for (const file of files) {
      pack.entry(
        { name: file.path, mode: file.mode, size: file.content.length, mtime: new Date(0), uid: 0, gid: 0 },
        file.content,
      );
    }
    for (const { fetch, file } of fetched.tarballs) await copyEntries(fetch, file, pack);
    pack.finalize();
  };
  write().catch((err: unknown) => pack.destroy(err instanceof Error ? err : new Error(String(err))));
  return Readable.from(pack, { objectMode: false });
}

/** Copy the taken entries of one tarball into the pack, renamed; regular files and directories only. */
async function copyEntries(fetch: RegistryFetch, file: string, pack: tar.Pack): Promise<void> {
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const target = header.type === 'file' || header.type === 'directory' ? destination(fetch, header.name) : undefined;
    if (target === undefined) {
      stream.on('end', next);
      stream.resume();
      return;
    }
    const mode = header.type === 'directory' || (header.mode ?? 0) & 0o111 ? 0o755 : 0o644;
    const common = { name: target, mode, mtime: new Date(0), uid: 0, gid: 0 };
    if (header.type === 'directory') {
      pack.entry({ ...common, type: 'directory' });
      stream.on('end', next);
      stream.resume();
      return;
    }
    const entry = pack.entry({ ...common, type: 'file', size: header.size ?? 0 }, (err) => next(err ?? undefined));
    stream.pipe(entry);
  });
  await pipeline(createReadStream(file), createGunzip(), extract);
}

/** Where a tarball path goes, or undefined when it is not taken (or would leave its directory). */
function destination(fetch: RegistryFetch, name: string): string | undefined {
  const clean = name.replace(/^\.\//, '');
  if (clean.split('/').includes('..')) return undefined;
  for (const { from, to } of fetch.take) {
    if (from.endsWith('/') ? clean.startsWith(from) : clean === from) return `${to}${clean.slice(from.length)}`;
  }
  return undefined;
}
