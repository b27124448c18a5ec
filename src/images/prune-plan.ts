// Which images `images prune` removes: the newest N per toolchain and kind are kept, or the oldest
// go until the rest fit a disk budget. Never the base image, never an image a live run uses,
// never a toolchain image an env image that stays is built on. Pure, so it is unit-tested.

/** One image as prune sees it. */
export interface PruneImage {
  tag: string;
  id: string;
  toolchain: string;
  kind: 'base' | 'toolchain' | 'env';
  created: Date;
  /** When a run last used it (from the usage file), if ever. */
  lastUsed: Date | null;
  /** Bytes it alone takes: an env image's size less its toolchain image's. */
  sizeBytes: number;
  /** For env images: the toolchain image id it is built on. */
  parentId?: string;
}

/** How much to keep. Without either, keep the newest 2 per toolchain and kind. */
export interface PrunePolicy {
  keep?: number;
  budgetBytes?: number;
}

/** Why an image stays. */
export type KeepReason = 'base' | 'in-use' | 'newest' | 'within-budget' | 'parent';

/** The decision for every image. */
export interface PrunePlan {
  remove: PruneImage[];
  keep: { image: PruneImage; reason: KeepReason }[];
}

/** The newest use or creation: what "recent" means for keeping. */
function recency(img: PruneImage): number {
  return Math.max(img.created.getTime(), img.lastUsed?.getTime() ?? 0);
}

/** Decide what to remove; `inUse` holds the image ids live sandboxes run from. */
export function planPrune(images: readonly PruneImage[], policy: PrunePolicy, inUse: ReadonlySet<string>): PrunePlan {
  const keepN = policy.keep ?? (policy.budgetBytes === undefined ? 2 : undefined);
  const reason = new Map<string, KeepReason>();
  for (const img of images) {
    if (img.kind === 'base') reason.set(img.id, 'base');
    else if (inUse.has(img.id)) reason.set(img.id, 'in-use');
  }
  const newestFirst = [...images].sort((a, b) => recency(b) - recency(a) || a.tag.localeCompare(b.tag));
  const candidates = new Set<string>();
  if (keepN !== undefined) {
    const seen = new Map<string, number>();
    for (const img of newestFirst) {
      if (reason.has(img.id)) continue;
      const group = `${img.kind}/${img.toolchain}`;
      const n = seen.get(group) ?? 0;
      seen.set(group, n + 1);
      if (n < keepN) reason.set(img.id, 'newest');
      else candidates.add(img.id);
    }
  }
  if (policy.budgetBytes !== undefined) {
    let total = images.filter((i) => !candidates.has(i.id)).reduce((sum, i) => sum + i.sizeBytes, 0);
    const hasStayingChild = (id: string): boolean => images.some((i) => i.parentId === id && !candidates.has(i.id));
    // least recent first; a toolchain image waits for its env images, so passes repeat until nothing more can go
    for (let progress = true; progress && total > policy.budgetBytes;) {
      progress = false;
      for (const img of [...newestFirst].reverse()) {
        if (total <= policy.budgetBytes) break;
        const r = reason.get(img.id);
        if (candidates.has(img.id) || r === 'base' || r === 'in-use' || hasStayingChild(img.id)) continue;
        reason.delete(img.id);
        candidates.add(img.id);
        total -= img.sizeBytes;
        progress = true;
      }
    }
    for (const img of images) if (!candidates.has(img.id) && !reason.has(img.id)) reason.set(img.id, 'within-budget');
  }
  // a toolchain image stays while an env image built on it stays (the engine refuses otherwise)
  for (const img of images) {
    if (img.kind === 'env' && !candidates.has(img.id) && img.parentId && candidates.delete(img.parentId))
      reason.set(img.parentId, 'parent');
  }
  const remove = images
    .filter((i) => candidates.has(i.id))
    .sort((a, b) => (a.kind === b.kind ? recency(a) - recency(b) : a.kind === 'env' ? -1 : 1));
  const keep = images
    .filter((i) => !candidates.has(i.id))
    .map((image) => ({ image, reason: reason.get(image.id) ?? 'newest' }));
  return { remove, keep };
}
