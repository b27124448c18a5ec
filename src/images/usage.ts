// Which runs used which image, and when: a small JSON file in the user's state directory
// (images are immutable, so labels cannot record a later use). `images list` shows it and
// `images prune` keeps recently used images first.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../state/atomic-write.js';
import { userStateDir } from '../state/state-key.js';

/** Runs remembered per image (the newest). */
const MAX_RUNS = 20;

const usageSchema = z.record(
  z.string(),
  z.object({
    last_used: z.string(),
    runs: z.array(z.object({ run_id: z.string(), repo: z.string(), at: z.string() })),
  }),
);

/** Image id -> when it was last used and by which runs (newest first). */
export type ImageUsage = z.infer<typeof usageSchema>;

/** The usage file: $XDG_STATE_HOME/hammer-box/image-usage.json (default ~/.local/state). */
export function imageUsagePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(userStateDir(env), 'image-usage.json');
}

/** Read the usage file; a missing or unreadable file is no usage (it is a cache, never a source of truth). */
export async function readImageUsage(path: string): Promise<ImageUsage> {
  try {
    const parsed = usageSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Record that `runId` used the images `ids` (atomic replace; a concurrent run may win the race, which loses one entry, never the file). */
export async function recordImageUsage(
  path: string,
  use: { ids: readonly string[]; runId: string; repo: string; at: Date },
): Promise<void> {
  const usage = await readImageUsage(path);
  const at = use.at.toISOString();
  for (const id of new Set(use.ids)) {
    const prev = usage[id]?.runs ?? [];
    usage[id] = {
      last_used: at,
      runs: [{ run_id: use.runId, repo: use.repo, at }, ...prev.filter((r) => r.run_id !== use.runId)].slice(
        0,
        MAX_RUNS,
      ),
    };
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify(usage, null, 2)}\n`);
}
