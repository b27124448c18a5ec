// `hammer-box images bootstrap | build [toolchain] | list`
import { bootstrapBase, ensureToolchainImage, listImages, toolchainNames } from '../../images/index.js';
import { connectEngine } from '../connect.js';
import { interruptSignal } from '../interrupt.js';

interface ImagesOptions {
  action: 'bootstrap' | 'build' | 'list';
  toolchain?: string;
  json?: boolean;
}

export default async function images(opts: ImagesOptions): Promise<number> {
  const signal = interruptSignal();
  const docker = await connectEngine(signal);
  const progress = (line: string): void => {
    process.stderr.write(`  ${line.replace(/\s+$/, '')}\n`);
  };
  if (opts.action === 'bootstrap') {
    const base = await bootstrapBase(docker, { onProgress: progress, signal });
    process.stdout.write(`${base.tag} ${base.id} (${base.method})\n`);
    return 0;
  }
  if (opts.action === 'build') {
    const names = opts.toolchain ? [opts.toolchain] : toolchainNames();
    for (const name of names) {
      const img = await ensureToolchainImage(docker, name, { onProgress: progress, signal });
      process.stdout.write(`${img.tag} ${img.id} (${img.built ? 'built' : 'up to date'})\n`);
    }
    return 0;
  }
  const list = await listImages(docker, { signal });
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    return 0;
  }
  for (const img of list) {
    process.stdout.write(`${img.tag.padEnd(40)} ${img.toolchain.padEnd(8)} ${(img.sizeBytes / 1024 ** 2).toFixed(0).padStart(6)} MB  ${img.created.toISOString()}\n`);
  }
  return 0;
}
