// The setup proxy's image (hammer-box/setup-proxy:<content hash>): Debian's tinyproxy on the base
// image, built once from images/setup-proxy/ like a toolchain image and never rebuilt while unchanged.
import path from 'node:path';
import type Dockerode from 'dockerode';
import { HammerError } from '../errors.js';
import { packBuildContext, readBuildContext } from './build-context.js';
import { hashImageInputs } from './context-hash.js';
import { engineError, inspectImage, statusCodeOf } from './engine.js';
import { BASE_TAG, IMAGE_LABELS, MANAGED_BY } from './labels.js';
import { imagesDir } from './package-root.js';
import { readProgress } from './progress.js';

/** The repository part of the proxy image's tag. */
export const PROXY_REPO = 'hammer-box/setup-proxy';

/** Return the proxy image's id, building it when its content-addressed tag is missing. */
export async function ensureProxyImage(
  docker: Dockerode,
  options: { onProgress?: (line: string) => void; signal?: AbortSignal; base?: string } = {},
): Promise<{ tag: string; id: string; built: boolean }> {
  const { signal } = options;
  const base = options.base ?? BASE_TAG;
  const baseImage = await inspectImage(docker, base, signal);
  if (!baseImage)
    throw new HammerError('IMAGE_MISSING', `the base image ${base} is missing`, {
      hint: "make it with 'hammer-box images bootstrap'",
    });
  const contextDir = path.join(imagesDir(), 'setup-proxy');
  const files = await readBuildContext(contextDir);
  const buildArgs = { BASE: base };
  const hash = hashImageInputs({ files, buildArgs, baseImageId: baseImage.id });
  const tag = `${PROXY_REPO}:${hash}`;
  const existing = await inspectImage(docker, tag, signal);
  if (existing) return { tag, id: existing.id, built: false };
  options.onProgress?.(`building ${tag} from ${contextDir}`);
  let summary;
  try {
    const stream = await docker.buildImage(packBuildContext(files), {
      t: tag,
      buildargs: buildArgs,
      labels: {
        [IMAGE_LABELS.managedBy]: MANAGED_BY,
        [IMAGE_LABELS.toolchain]: 'setup-proxy',
        [IMAGE_LABELS.contextHash]: hash,
      },
      pull: false,
      rm: true,
      forcerm: true,
      version: '1',
      abortSignal: signal,
    });
    summary = await readProgress(stream, options.onProgress, 20);
  } catch (err) {
    if (statusCodeOf(err) !== undefined)
      throw new HammerError(
        'IMAGE_BUILD_FAILED',
        `building ${tag}: ${err instanceof Error ? err.message : String(err)}`,
        {
          cause: err,
        },
      );
    throw engineError(err, `building ${tag}`, signal);
  }
  const built = summary.error === undefined ? await inspectImage(docker, tag, signal) : undefined;
  if (!built)
    throw new HammerError(
      'IMAGE_BUILD_FAILED',
      `building ${tag}: ${summary.error ?? 'no image'}\n${summary.tail.join('\n')}`,
      {
        hint: 'check that the build can reach the Debian archive (it installs tinyproxy-bin)',
      },
    );
  return { tag, id: built.id, built: true };
}
