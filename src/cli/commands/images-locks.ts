// `hammer-box images show <ref> | export [refs...] [--for-repo PATH] -o FILE | import FILE`
import { resolve } from 'node:path';
import { repoImages } from '../../api/repo-images.js';
import { HammerError } from '../../errors.js';
import { exportImages, exportSet, importImages } from '../../images/archive.js';
import { inspectImage } from '../../images/engine.js';
import { diffLocks, lockDigest, type ImageLock } from '../../images/lock.js';
import { lockOfLabels } from '../../images/lock-label.js';
import { lockFromFacts, probeImage } from '../../images/lock-probe.js';
import { lockStoreDir, readLocks } from '../../images/lock-store.js';
import { BASE_TAG, IMAGE_LABELS } from '../../images/labels.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { connectEngine } from '../connect.js';
import { interruptSignal } from '../interrupt.js';
import { printOutsideLine } from '../terminal-text.js';

interface LocksOptions {
  action: 'show' | 'export' | 'import';
  ref?: string;
  refs?: string[];
  file?: string;
  out?: string;
  forRepo?: string;
  config?: string;
  json?: boolean;
}

export default async function imagesLocks(opts: LocksOptions): Promise<number> {
  const signal = interruptSignal();
  const docker = await connectEngine(signal);
  if (opts.action === 'show') return show(docker, opts.ref ?? '', opts.json === true, signal);
  if (opts.action === 'import') {
    const file = resolve(opts.file ?? '');
    const report = await importImages(docker, file, { lockStore: lockStoreDir(), signal });
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return 0;
    }
    for (const i of report.images)
      process.stdout.write(`imported ${i.tag} ${i.id}${i.lock ? ` lock ${i.lock}` : ''}\n`);
    for (const d of report.drift)
      printOutsideLine(
        `hammer-box: ${d.tag} was another image (${d.was.slice(7, 19)}) before the import; its lock differed: ${d.differences.slice(0, 10).join('; ')}`,
      );
    return 0;
  }
  if (!opts.out) throw new HammerError('USAGE', 'images export needs -o FILE');
  const refs = [...(opts.refs ?? [])];
  if (opts.forRepo) {
    const made = await repoImages(docker, {
      repo: opts.forRepo,
      ...(opts.config ? { configFile: opts.config } : {}),
      signal,
      onProgress: (line) => printOutsideLine(line),
    });
    refs.push(made.ref);
  }
  if (refs.length === 0) throw new HammerError('USAGE', 'images export needs image references or --for-repo PATH');
  const set = await exportSet(docker, refs, signal);
  const out = resolve(opts.out);
  await exportImages(docker, set, out, signal);
  if (opts.json) process.stdout.write(`${JSON.stringify({ file: out, images: set }, null, 2)}\n`);
  else {
    for (const i of set) process.stdout.write(`exported ${i.tag} ${i.id}${i.lock ? ` lock ${i.lock}` : ''}\n`);
    process.stdout.write(`wrote ${out}\n`);
  }
  return 0;
}

/** Print an image's lock, and how it differs from the first lock this machine saw for its key. */
async function show(
  docker: Awaited<ReturnType<typeof connectEngine>>,
  ref: string,
  json: boolean,
  signal: AbortSignal,
): Promise<number> {
  const img = await inspectImage(docker, ref, signal);
  if (!img)
    throw new HammerError('IMAGE_MISSING', `the engine has no image ${ref}`, { hint: "see 'hammer-box images list'" });
  if (ref === BASE_TAG || img.labels['hammer-box.managed-by'] !== 'hammer-box')
    throw new HammerError('USAGE', `${ref} is not a toolchain or env image of hammer-box's: only those have locks`);
  let lock: ImageLock | null = lockOfLabels(img.labels);
  const recorded = lock !== null;
  if (!lock) {
    // built before locks were recorded: read what is in it now (its key and origin as its labels say)
    const env = img.labels['hammer-box.env-hash'];
    lock = lockFromFacts(await probeImage(docker, img.id, signal), {
      kind: env ? 'env' : 'toolchain',
      key: env ?? img.labels[IMAGE_LABELS.contextHash] ?? '000000000000',
      from: { ref: env ? 'toolchain image' : BASE_TAG, id: img.labels['hammer-box.toolchain-image'] ?? img.id },
      toolchain: img.labels[IMAGE_LABELS.toolchain] ?? 'unknown',
    });
  }
  const reference = (await readLocks(lockStoreDir(), ref))[0];
  const drift = reference && reference.digest !== lockDigest(lock) ? diffLocks(reference.lock, lock) : [];
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ tag: ref, id: img.id, recorded, digest: lockDigest(lock), lock, drift, reference: reference ? { digest: reference.digest, at: reference.at } : null }, null, 2)}\n`,
    );
    return 0;
  }
  // the indentation is ours; what follows it came from the image
  const w = (line: string): boolean => {
    const indent = /^ */.exec(line)![0];
    return process.stdout.write(`${indent}${sanitizeLine(line.slice(indent.length))}\n`);
  };
  w(`${ref} (${img.id})`);
  w(
    `  kind: ${lock.kind}, key ${lock.key}, lock ${lockDigest(lock)}${recorded ? '' : ' (read now: the image was built before locks were recorded)'}`,
  );
  w(`  made from: ${lock.from.ref} ${lock.from.id}`);
  if (lock.toolchain)
    w(
      `  toolchain: ${lock.toolchain.name} ${lock.toolchain.version}${lock.toolchain.checksum ? ` (${lock.toolchain.checksum})` : ''}`,
    );
  if (lock.debian.length > 0) {
    w(`  Debian packages (${lock.debian.length}):`);
    for (const d of lock.debian) w(`    ${d}`);
  }
  if (lock.packages.length > 0) {
    w(`  dependencies (${lock.packages.length}):`);
    for (const p of lock.packages) w(`    ${p}`);
  }
  if (drift.length > 0) {
    w(`  DRIFT: differs from the lock this machine first saw for ${ref} (${reference!.at}):`);
    for (const d of drift) w(`    ${d}`);
  }
  return 0;
}
