// `hammer-box images prune` and `images list` through the real CLI binary against the real engine.
// Six tiny labelled images of a throwaway toolchain (prunetest-<random>, so no real image is ever
// touched) are built FROM the base image, one second apart so their creation times order them:
// two old toolchain images, a toolchain image that env images are built on, and three env images
// on it, one of which a running hammer-box container uses. `prune <toolchain> --keep 1` removes
// the old ones only; a dry run removes nothing; the base image and the in-use image always stay.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BASE_TAG, IMAGE_LABELS, MANAGED_BY } from '../../src/images/labels.js';
import { imageUsagePath, recordImageUsage } from '../../src/images/usage.js';
import { packageRoot } from '../../src/paths.js';
import { toolchainImage } from '../helpers/images.js';

const run = promisify(execFile);
const docker = new Docker();
const toolchain = `prunetest-${randomBytes(4).toString('hex')}`;
const repo = `hammer-box/${toolchain}`;
const tags = {
  t0: `${repo}:t0`,
  t1: `${repo}:t1`,
  t2: `${repo}:t2`,
  e0: `${repo}-env:e0`,
  e1: `${repo}-env:e1`,
  e2: `${repo}-env:e2`,
} as const;
const ids: Partial<Record<keyof typeof tags, string>> = {};
let stateHome: string;
let container: Docker.Container | undefined;

const imageJson = z.object({
  tag: z.string(),
  id: z.string(),
  kind: z.string(),
  toolchain: z.string(),
  sizeBytes: z.number(),
  created: z.string(),
  lastUsed: z.string().nullable(),
  runs: z.array(z.string()),
});
const pruneJson = z.object({
  removed: z.array(imageJson),
  kept: z.array(z.object({ image: imageJson, reason: z.string() })),
  freedBytes: z.number(),
});

/** Build a one-LABEL image FROM `from` (no layers of its own, so it costs a config blob). */
async function build(tag: string, from: string, labels: Record<string, string>): Promise<string> {
  const pack = tar.pack();
  const dockerfile = [
    `FROM ${from}`,
    ...Object.entries(labels).map(([k, v]) => `LABEL ${JSON.stringify(k)}=${JSON.stringify(v)}`),
    '',
  ].join('\n');
  pack.entry({ name: 'Dockerfile' }, dockerfile);
  pack.finalize();
  const stream = await docker.buildImage(Readable.from(pack, { objectMode: false }), { t: tag, rm: true });
  await new Promise<void>((resolve, reject) =>
    docker.modem.followProgress(stream, (err) => (err ? reject(err) : resolve())),
  );
  return (await docker.getImage(tag).inspect()).Id;
}

/** The CLI with the temporary state home (for the usage file). */
async function cli(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [join(packageRoot(), 'dist', 'cli', 'main.js'), ...args], {
    env: { ...process.env, XDG_STATE_HOME: stateHome },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

const exists = async (ref: string): Promise<boolean> =>
  docker
    .getImage(ref)
    .inspect()
    .then(
      () => true,
      () => false,
    );

beforeAll(async () => {
  await toolchainImage('python'); // makes sure the base image exists (and reuses it)
  stateHome = await mkdtemp(join(tmpdir(), 'hb-prune-state-'));
  const nonce = randomBytes(6).toString('hex');
  const managed = {
    [IMAGE_LABELS.managedBy]: MANAGED_BY,
    [IMAGE_LABELS.toolchain]: toolchain,
    'hammer-box.test-nonce': nonce,
  };
  // creation times have one-second resolution: a pause between builds orders them
  ids.t0 = await build(tags.t0, BASE_TAG, { ...managed, [IMAGE_LABELS.contextHash]: 't0' });
  await sleep(1100);
  ids.t1 = await build(tags.t1, BASE_TAG, { ...managed, [IMAGE_LABELS.contextHash]: 't1' });
  for (const e of ['e0', 'e1', 'e2'] as const) {
    await sleep(1100);
    ids[e] = await build(tags[e], tags.t1, {
      ...managed,
      'hammer-box.env-hash': e,
      'hammer-box.toolchain-image': ids.t1,
    });
  }
  await sleep(1100);
  ids.t2 = await build(tags.t2, BASE_TAG, { ...managed, [IMAGE_LABELS.contextHash]: 't2' });
  // a live hammer-box container on the oldest env image
  container = await docker.createContainer({
    Image: ids.e0,
    Cmd: ['sleep', '600'],
    Labels: { [IMAGE_LABELS.managedBy]: MANAGED_BY, 'hammer-box.purpose': 'prune-test' },
    HostConfig: { NetworkMode: 'none', AutoRemove: false },
  });
  await container.start();
  await recordImageUsage(imageUsagePath({ XDG_STATE_HOME: stateHome }), {
    ids: [ids.e2!],
    runId: 'prunetest-run-1',
    repo: '/tmp/prunetest-repo',
    at: new Date(),
  });
}, 180_000);

afterAll(async () => {
  await container?.remove({ force: true }).catch(() => undefined);
  for (const key of ['e0', 'e1', 'e2', 't0', 't1', 't2'] as const)
    await docker
      .getImage(tags[key])
      .remove({ force: true })
      .catch(() => undefined);
  if (stateHome) await rm(stateHome, { recursive: true, force: true });
});

describe('images list and images prune with the real engine', () => {
  it('list --json shows tag, kind, size, created, last used and the runs that used each image', async () => {
    const list = z.array(imageJson).parse(JSON.parse(await cli(['images', 'list', '--json'])));
    const mine = list.filter((i) => i.toolchain === toolchain);
    expect(mine.map((i) => i.tag).sort()).toEqual(Object.values(tags).sort());
    const e2 = mine.find((i) => i.tag === tags.e2)!;
    expect(e2).toMatchObject({ id: ids.e2, kind: 'env', runs: ['prunetest-run-1'] });
    expect(e2.sizeBytes).toBeGreaterThan(0);
    expect(Date.parse(e2.lastUsed!)).toBeGreaterThanOrEqual(Date.parse(e2.created));
    expect(mine.find((i) => i.tag === tags.t0)).toMatchObject({ kind: 'toolchain', lastUsed: null, runs: [] });
    // newest first
    expect(mine.map((i) => i.tag)).toEqual([tags.t2, tags.e2, tags.e1, tags.e0, tags.t1, tags.t0]);
    expect(list.find((i) => i.tag === BASE_TAG)?.kind).toBe('base');
  });

  it('the text listing has a row with the last use and run for a used image', async () => {
    const text = await cli(['images', 'list']);
    expect(text.split('\n')[0]).toMatch(/^TAG\s+KIND\s+VERSION\s+SIZE\s+CREATED\s+LAST USED\s+RUNS$/);
    expect(text.split('\n').find((l) => l.startsWith(tags.e2))).toMatch(/env .* MB .* prunetest-run-1$/);
  });

  it('a dry run over every image never plans to remove the base image or the image a running container uses', async () => {
    const plan = pruneJson.parse(JSON.parse(await cli(['images', 'prune', '--keep', '0', '--dry-run', '--json'])));
    expect(plan.removed.map((i) => i.tag)).not.toContain(BASE_TAG);
    expect(plan.kept.find((k) => k.image.tag === BASE_TAG)?.reason).toBe('base');
    expect(plan.kept.find((k) => k.image.id === ids.e0)?.reason).toBe('in-use');
    expect(await exists(tags.t0)).toBe(true); // a dry run removes nothing
  });

  it('prune <toolchain> --keep 1 --dry-run names the old images and removes none', async () => {
    const plan = pruneJson.parse(
      JSON.parse(await cli(['images', 'prune', toolchain, '--keep', '1', '--dry-run', '--json'])),
    );
    expect(plan.removed.map((i) => i.tag).sort()).toEqual([tags.e1, tags.t0].sort());
    for (const tag of Object.values(tags)) expect(await exists(tag), tag).toBe(true);
  });

  it('prune <toolchain> --keep 1 removes the old images and keeps the newest, the in-use one and the parent of kept env images', async () => {
    const result = pruneJson.parse(JSON.parse(await cli(['images', 'prune', toolchain, '--keep', '1', '--json'])));
    // env images go before toolchain images (an image with children cannot be removed)
    expect(result.removed.map((i) => i.tag)).toEqual([tags.e1, tags.t0]);
    const reasons = Object.fromEntries(result.kept.map((k) => [k.image.tag, k.reason]));
    expect(reasons).toEqual({ [tags.t2]: 'newest', [tags.e2]: 'newest', [tags.e0]: 'in-use', [tags.t1]: 'parent' });
    expect(await exists(tags.t0)).toBe(false);
    expect(await exists(tags.e1)).toBe(false);
    for (const tag of [tags.t1, tags.t2, tags.e0, tags.e2, BASE_TAG]) expect(await exists(tag), tag).toBe(true);
  });
});
