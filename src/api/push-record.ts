// What `pr` pushed for a run, kept beside the run's files: `runs prune` never removes a branch that
// was pushed (the pull request needs it). A record that cannot be read counts as a push.
import { z } from 'zod';
import type { RunStore } from '../state/store.js';

/** The artifact `pr` writes after a push (its own file: a run's sealed state is written only by the run). */
export const PUSH_RECORD_ARTIFACT = 'pushed.json';

const PushRecordSchema = z.array(
  z.strictObject({ branch: z.string(), remote: z.string(), url: z.string(), commit: z.string(), at: z.string() }),
);

/** One push of a run's branch. */
export type PushRecord = z.infer<typeof PushRecordSchema>[number];

/** Add a push to the run's record (the remote's URL without credentials). */
export async function recordPush(store: RunStore, runId: string, push: PushRecord): Promise<void> {
  const before = await readPushes(store, runId);
  await store.writeArtifact(runId, PUSH_RECORD_ARTIFACT, `${JSON.stringify([...before, push], null, 2)}\n`);
}

/** The pushes recorded for a run ([] when none; one unknown push when the record cannot be read). */
export async function readPushes(store: RunStore, runId: string): Promise<PushRecord[]> {
  let text: string;
  try {
    text = await store.readArtifact(runId, PUSH_RECORD_ARTIFACT);
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause as NodeJS.ErrnoException | undefined;
    if (cause?.code === 'ENOENT') return [];
    return [UNREADABLE];
  }
  try {
    return PushRecordSchema.parse(JSON.parse(text));
  } catch {
    return [UNREADABLE];
  }
}

/** A record that cannot be read: a push may have happened. */
const UNREADABLE: PushRecord = { branch: '', remote: '(unreadable push record)', url: '', commit: '', at: '' };
