// Env keys whose setup installed nothing: remembered in the user's state directory (never in a
// repository), so a later run of the same inputs uses the toolchain image without running setup
// again, and no env image is made for nothing.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../state/atomic-write.js';
import { imageUsagePath } from './usage.js';

/** Entries kept (the newest); older ones only cost a setup run again. */
const MAX_ENTRIES = 500;

const schema = z.record(z.string(), z.object({ toolchain_image: z.string(), at: z.string() }));

/** The file: $XDG_STATE_HOME/hammer-box/empty-envs.json, beside the image usage file. */
export function emptyEnvsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(imageUsagePath(env)), 'empty-envs.json');
}

async function read(path: string): Promise<z.infer<typeof schema>> {
  try {
    const parsed = schema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** True when setup of `tag` on `toolchainImageId` is known to install nothing. */
export async function isKnownEmpty(path: string, tag: string, toolchainImageId: string): Promise<boolean> {
  return (await read(path))[tag]?.toolchain_image === toolchainImageId;
}

/** Remember that setup of `tag` installed nothing (atomic replace; losing a concurrent entry only costs a setup). */
export async function recordEmpty(path: string, tag: string, toolchainImageId: string, at: Date): Promise<void> {
  const all = await read(path);
  all[tag] = { toolchain_image: toolchainImageId, at: at.toISOString() };
  const kept = Object.entries(all)
    .sort((a, b) => b[1].at.localeCompare(a[1].at))
    .slice(0, MAX_ENTRIES);
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
}
