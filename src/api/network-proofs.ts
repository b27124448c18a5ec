// Where network proofs are kept between runs: $XDG_STATE_HOME/hammer-box/network-proofs.json,
// sealed with the user's state key like a run's state (a proof decides whether an untrusted
// repository may run, so only one hammer-box wrote is believed), and, within one process (a
// batch's attempts), one probe at a time per fingerprint. What is reused, and for how long, is
// decided in sandbox/kubernetes/network-proof.ts.
import { readFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { KeptProofSchema, type KeptProof, type ProofStore } from '../sandbox/kubernetes/network-proof.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { openSealedState, sealState } from '../state/state-mac.js';
import { loadStateKey, userStateDir } from '../state/state-key.js';

/** Proofs kept at most (the newest); a namespace has one per set of facts, so a few are plenty. */
const MAX_KEPT = 32;

const FileSchema = z.strictObject({ proofs: z.array(KeptProofSchema).max(MAX_KEPT) });

/** The file: $XDG_STATE_HOME/hammer-box/network-proofs.json (default ~/.local/state). */
export function networkProofsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(userStateDir(env), 'network-proofs.json');
}

/**
 * A store over the proofs file. A file that is missing, unsealed, sealed under another key or
 * unreadable holds no proof (it is a cache: the probe runs again), and is replaced at the next write.
 */
export function networkProofStore(env: NodeJS.ProcessEnv = process.env): ProofStore {
  const path = networkProofsPath(env);
  const running = new Map<string, Promise<KeptProof>>();
  const readAll = async (): Promise<KeptProof[]> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return [];
    }
    const key = await loadStateKey(env);
    const opened = openSealedState(text, key.bytes);
    if (!opened.ok) return [];
    try {
      const parsed = FileSchema.safeParse(JSON.parse(opened.body));
      return parsed.success ? parsed.data.proofs : [];
    } catch {
      return [];
    }
  };
  return {
    read: async (fingerprint) => (await readAll()).find((p) => p.fingerprint === fingerprint) ?? null,
    write: async (proof) => {
      const key = await loadStateKey(env);
      const others = (await readAll()).filter((p) => p.fingerprint !== proof.fingerprint);
      const proofs = [proof, ...others]
        .sort((a, b) => Date.parse(b.proved_at) - Date.parse(a.proved_at))
        .slice(0, MAX_KEPT);
      await mkdir(userStateDir(env), { recursive: true, mode: 0o700 });
      await writeFileAtomic(path, sealState(`${JSON.stringify({ proofs }, null, 2)}\n`, key.bytes), {
        durable: false,
      });
    },
    once: (fingerprint, prove) => {
      const now = running.get(fingerprint);
      if (now) return now;
      const p = prove().finally(() => running.delete(fingerprint));
      running.set(fingerprint, p);
      return p;
    },
  };
}
