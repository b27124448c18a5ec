import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planPrune, type PruneImage } from '../../../src/images/prune-plan.js';
import { imageUsagePath, readImageUsage, recordImageUsage } from '../../../src/images/usage.js';

const day = (n: number): Date => new Date(Date.UTC(2025, 0, n));
const img = (
  id: string,
  kind: PruneImage['kind'],
  toolchain: string,
  created: number,
  extra: Partial<PruneImage> = {},
): PruneImage => ({
  tag: `hammer-box/${toolchain}${kind === 'env' ? '-env' : ''}:${id}`,
  id,
  toolchain,
  kind,
  created: day(created),
  lastUsed: null,
  sizeBytes: 100,
  ...extra,
});

describe('planPrune', () => {
  const images = [
    img('base', 'base', 'base', 1),
    img('py1', 'toolchain', 'python', 1),
    img('py2', 'toolchain', 'python', 2),
    img('py3', 'toolchain', 'python', 3),
    img('e1', 'env', 'python', 4, { parentId: 'py1' }),
    img('e2', 'env', 'python', 5, { parentId: 'py3' }),
    img('e3', 'env', 'python', 6, { parentId: 'py3' }),
    img('n1', 'toolchain', 'node', 1),
  ];
  const ids = (list: readonly PruneImage[]): string[] => list.map((i) => i.id).sort();

  it('keeps the newest N per toolchain and kind, never the base, and removes env images before toolchain images', () => {
    const plan = planPrune(images, { keep: 1 }, new Set());
    expect(ids(plan.remove)).toEqual(['e1', 'e2', 'py1', 'py2']);
    expect(plan.remove.at(-1)!.kind).toBe('toolchain');
    expect(plan.keep.find((k) => k.image.id === 'base')!.reason).toBe('base');
  });

  it('counts a recent use as recency: an old image used yesterday stays', () => {
    const used = images.map((i) => (i.id === 'e1' ? { ...i, lastUsed: day(30) } : i));
    const plan = planPrune(used, { keep: 1 }, new Set());
    expect(ids(plan.remove)).toContain('e3');
    expect(ids(plan.remove)).not.toContain('e1');
    // e1 stays, so the toolchain image it is built on stays too
    expect(plan.keep.find((k) => k.image.id === 'py1')!.reason).toBe('parent');
  });

  it('never removes an image a live sandbox uses', () => {
    const plan = planPrune(images, { keep: 0 }, new Set(['e1']));
    expect(ids(plan.remove)).not.toContain('e1');
    expect(plan.keep.find((k) => k.image.id === 'e1')!.reason).toBe('in-use');
  });

  it('fits a disk budget by removing the least recent first', () => {
    // 8 images of 100 bytes: a budget of 500 removes the three least recent that may go
    const plan = planPrune(images, { budgetBytes: 500 }, new Set());
    expect(plan.remove).toHaveLength(3);
    const kept = plan.keep.reduce((s, k) => s + k.image.sizeBytes, 0);
    expect(kept).toBeLessThanOrEqual(500);
    expect(ids(plan.remove)).not.toContain('base');
  });

  it('keeps the newest 2 per group by default', () => {
    expect(ids(planPrune(images, {}, new Set()).remove)).toEqual(['e1', 'py1']);
  });
});

describe('image usage file', () => {
  it('records which runs used an image, newest first, and survives a corrupt file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hb-usage-'));
    try {
      const path = imageUsagePath({ XDG_STATE_HOME: dir });
      expect(path).toBe(join(dir, 'hammer-box', 'image-usage.json'));
      expect(await readImageUsage(path)).toEqual({});
      await recordImageUsage(path, { ids: ['sha256:a', 'sha256:b'], runId: 'r1', repo: '/repo', at: day(1) });
      await recordImageUsage(path, { ids: ['sha256:a'], runId: 'r2', repo: '/repo', at: day(2) });
      const usage = await readImageUsage(path);
      expect(usage['sha256:a']!.runs.map((r) => r.run_id)).toEqual(['r2', 'r1']);
      expect(usage['sha256:a']!.last_used).toBe(day(2).toISOString());
      expect(usage['sha256:b']!.runs.map((r) => r.run_id)).toEqual(['r1']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
