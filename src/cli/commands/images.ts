// `hammer-box images bootstrap | build [toolchain] | list | prune [toolchain]`
import { readFile } from 'node:fs/promises';
import { registryOptions } from '../../api/resolve-image.js';
import { parseLock, type ImageLock } from '../../images/lock.js';
import { lockStoreDir } from '../../images/lock-store.js';
import { resolveConfig } from '../../config/resolve.js';
import { parseSize } from '../../config/units.js';
import { HammerError } from '../../errors.js';
import {
  bootstrapBase,
  ensureToolchainImage,
  imageUsagePath,
  listImages,
  pruneImages,
  readImageUsage,
  toolchainNames,
} from '../../images/index.js';
import { EMULATION_HINT } from '../../images/architecture.js';
import { pushImages } from '../../images/registry-push.js';
import { printOutsideLine } from '../terminal-text.js';
import { resolveToolchainVersion } from '../../images/versions/index.js';
import { connectEngine } from '../connect.js';
import { interruptSignal } from '../interrupt.js';

interface ImagesOptions {
  action: 'bootstrap' | 'build' | 'list' | 'prune' | 'push';
  toolchain?: string;
  refs?: string[];
  registry?: string;
  json?: boolean;
  keep?: string;
  budget?: string;
  dryRun?: boolean;
  lock?: string;
}

/** A lock from a file: a lock, or what `images show --json` prints (its "lock"). */
async function readLockFile(file: string): Promise<ImageLock> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new HammerError('USAGE', `cannot read the lock ${file}`, { cause: err });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = undefined;
  }
  const inner = typeof raw === 'object' && raw !== null && 'lock' in raw ? raw.lock : raw;
  const lock = parseLock(JSON.stringify(inner ?? null));
  if (!lock)
    throw new HammerError('USAGE', `${file} is not a lock ('hammer-box images show <image> --json' prints one)`);
  return lock;
}

const mb = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(0).padStart(6)} MB`;

export default async function images(opts: ImagesOptions): Promise<number> {
  const signal = interruptSignal();
  const docker = await connectEngine(signal);
  const progress = (line: string): void => printOutsideLine(line);
  if (opts.action === 'bootstrap') {
    const base = await bootstrapBase(docker, { onProgress: progress, signal });
    process.stdout.write(`${base.tag} ${base.id} (${base.method})\n`);
    return 0;
  }
  if (opts.action === 'build') {
    // "node@22": a release as --toolchain-version names it; a bare name: the toolchain's default
    const specs = opts.toolchain ? [opts.toolchain] : toolchainNames();
    const fromLock = opts.lock ? await readLockFile(opts.lock) : undefined;
    if (fromLock && !opts.toolchain) throw new HammerError('USAGE', '--lock rebuilds one toolchain: name it');
    const resolved = specs.map((spec) => {
      const at = spec.indexOf('@');
      return at < 0
        ? resolveToolchainVersion(spec, null)
        : resolveToolchainVersion(spec.slice(0, at), null, spec.slice(at + 1) || 'none');
    });
    const { config } = await resolveConfig({ env: process.env });
    const registry = await registryOptions(config, process.env);
    await bootstrapBase(docker, { onProgress: progress, signal });
    let warned: string | null = null;
    for (const r of resolved) {
      const img = await ensureToolchainImage(docker, r.toolchain, {
        release: r.release,
        registry,
        onProgress: progress,
        signal,
        lockStore: lockStoreDir(),
        ...(fromLock ? { fromLock } : {}),
      });
      for (const d of img.drift)
        printOutsideLine(`hammer-box: ${img.tag} drifted from the first lock seen for its key: ${d}`);
      process.stdout.write(
        `${img.tag} ${img.id} ${r.toolchain} ${r.release.version} (${img.built ? 'built' : 'up to date'})\n`,
      );
      if (img.emulation) warned = img.emulation;
    }
    if (warned) printOutsideLine(`hammer-box: WARNING: ${warned}; ${EMULATION_HINT}`);
    return 0;
  }
  if (opts.action === 'push') {
    const registry = opts.registry ?? '';
    if (!/^[A-Za-z0-9.-]+(:\d+)?(\/[a-z0-9._/-]+)?$/.test(registry))
      throw new HammerError('USAGE', `--registry takes host[:port][/prefix], not ${JSON.stringify(registry)}`);
    // default: every toolchain and env image (the base image only builds the others)
    const refs = opts.refs?.length
      ? opts.refs
      : (await listImages(docker, { signal }))
          .filter((i) => i.kind !== 'base' && !i.tag.startsWith('sha256:'))
          .map((i) => i.tag);
    const pushed = await pushImages(docker, refs, registry, { onProgress: progress, signal });
    if (opts.json) process.stdout.write(`${JSON.stringify(pushed, null, 2)}\n`);
    else for (const p of pushed) process.stdout.write(`${p.pushed}${p.digest ? ` ${p.digest}` : ''}\n`);
    if (!opts.json && pushed.length === 0)
      process.stdout.write('no image to push (hammer-box images build makes them)\n');
    return 0;
  }
  const usage = await readImageUsage(imageUsagePath());
  if (opts.action === 'prune') {
    const keep = opts.keep === undefined ? undefined : Number(opts.keep);
    if (keep !== undefined && !(Number.isInteger(keep) && keep >= 0))
      throw new HammerError('USAGE', `--keep takes a whole number, not ${opts.keep}`);
    const budgetBytes = opts.budget === undefined ? undefined : parseSize(opts.budget);
    if (opts.budget !== undefined && budgetBytes === undefined)
      throw new HammerError('USAGE', `--budget takes a size such as 5g, not ${opts.budget}`);
    const result = await pruneImages(
      docker,
      { ...(keep !== undefined ? { keep } : {}), ...(budgetBytes !== undefined ? { budgetBytes } : {}) },
      {
        usage,
        signal,
        dryRun: opts.dryRun === true,
        ...(opts.toolchain ? { toolchain: opts.toolchain } : {}),
      },
    );
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    }
    const verb = opts.dryRun ? 'would remove' : 'removed';
    for (const img of result.removed) process.stdout.write(`${verb} ${img.tag.padEnd(44)} ${mb(img.sizeBytes)}\n`);
    for (const k of result.kept.filter((k) => k.reason === 'in-use' || k.reason === 'engine-refused')) {
      process.stdout.write(`kept ${k.image.tag} (${k.reason}${k.detail ? `: ${k.detail}` : ''})\n`);
    }
    process.stdout.write(
      `${verb} ${result.removed.length} image(s), about ${(result.freedBytes / 1024 ** 2).toFixed(0)} MB\n`,
    );
    return 0;
  }
  const list = await listImages(docker, { signal, usage });
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(
    `${'TAG'.padEnd(44)} ${'KIND'.padEnd(9)} ${'VERSION'.padEnd(9)} ${'SIZE'.padStart(9)}  ${'CREATED'.padEnd(20)} ${'LAST USED'.padEnd(20)} RUNS\n`,
  );
  for (const img of list) {
    const when = (d: Date | null): string => (d ? d.toISOString().slice(0, 19).replace('T', ' ') : '-').padEnd(20);
    const runs =
      img.runs.length === 0
        ? '-'
        : `${img.runs.slice(0, 3).join(', ')}${img.runs.length > 3 ? ` (+${img.runs.length - 3})` : ''}`;
    process.stdout.write(
      `${img.tag.padEnd(44)} ${img.kind.padEnd(9)} ${(img.version ?? '-').padEnd(9)} ${mb(img.sizeBytes)}  ${when(img.created)} ${when(img.lastUsed)} ${runs}\n`,
    );
  }
  return 0;
}
