// The memo of env keys whose setup installed nothing: found again only for the same toolchain
// image, kept in the user's state directory, bounded, and harmless when unreadable.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyEnvsPath, isKnownEmpty, recordEmpty } from '../../../src/images/empty-envs.js';

let dir: string;
let path: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-empty-envs-'));
  path = join(dir, 'state', 'hammer-box', 'empty-envs.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('empty-envs memo', () => {
  it('lives beside the image usage file in XDG_STATE_HOME, else ~/.local/state', () => {
    expect(emptyEnvsPath({ XDG_STATE_HOME: '/s' })).toBe('/s/hammer-box/empty-envs.json');
    expect(emptyEnvsPath({ HOME: '/home/u' })).toBe('/home/u/.local/state/hammer-box/empty-envs.json');
    // a relative XDG_STATE_HOME is ignored, as the XDG spec says
    expect(emptyEnvsPath({ XDG_STATE_HOME: 'rel', HOME: '/home/u' })).toBe(
      '/home/u/.local/state/hammer-box/empty-envs.json',
    );
  });

  it('knows nothing before anything is recorded, and nothing when the file is missing', async () => {
    expect(await isKnownEmpty(path, 'hammer-box/node-env:abc', 'sha256:t1')).toBe(false);
  });

  it('finds a recorded key again only on the same toolchain image', async () => {
    await recordEmpty(path, 'hammer-box/node-env:abc', 'sha256:t1', new Date('2026-01-01T00:00:00Z'));
    expect(await isKnownEmpty(path, 'hammer-box/node-env:abc', 'sha256:t1')).toBe(true);
    // a rebuilt toolchain image may install differently: setup runs again
    expect(await isKnownEmpty(path, 'hammer-box/node-env:abc', 'sha256:t2')).toBe(false);
    expect(await isKnownEmpty(path, 'hammer-box/node-env:def', 'sha256:t1')).toBe(false);
    const onDisk = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect(onDisk).toEqual({
      'hammer-box/node-env:abc': { toolchain_image: 'sha256:t1', at: '2026-01-01T00:00:00.000Z' },
    });
  });

  it('a later record for the same key replaces the toolchain image it was made on', async () => {
    await recordEmpty(path, 'k', 'sha256:t1', new Date('2026-01-01T00:00:00Z'));
    await recordEmpty(path, 'k', 'sha256:t2', new Date('2026-01-02T00:00:00Z'));
    expect(await isKnownEmpty(path, 'k', 'sha256:t1')).toBe(false);
    expect(await isKnownEmpty(path, 'k', 'sha256:t2')).toBe(true);
  });

  it('keeps the newest 500 entries', async () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const entries = Object.fromEntries(
      Array.from({ length: 500 }, (_, i) => [
        `k${i}`,
        { toolchain_image: 'sha256:t', at: new Date(start + (i + 1) * 1000).toISOString() },
      ]),
    );
    await recordEmpty(path, 'seed', 'sha256:t', new Date(start));
    await writeFile(path, JSON.stringify(entries));
    await recordEmpty(path, 'newest', 'sha256:t', new Date(start + 1_000_000));
    const kept = Object.keys(JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>);
    expect(kept).toHaveLength(500);
    expect(kept).toContain('newest');
    // the oldest entry made room
    expect(kept).not.toContain('k0');
    expect(kept).toContain('k499');
  });

  it('treats an unreadable or malformed file as empty, and a record repairs it', async () => {
    await recordEmpty(path, 'seed', 'sha256:t', new Date());
    await writeFile(path, '{ not json');
    expect(await isKnownEmpty(path, 'seed', 'sha256:t')).toBe(false);
    await writeFile(path, JSON.stringify({ k: { toolchain_image: 7 } }));
    expect(await isKnownEmpty(path, 'k', 'sha256:t')).toBe(false);
    await recordEmpty(path, 'k', 'sha256:t', new Date('2026-01-01T00:00:00Z'));
    expect(await isKnownEmpty(path, 'k', 'sha256:t')).toBe(true);
  });
});
