// Reading runs to look at them (the monitor): every state file with whether its seal verified, and
// artifacts read in bounded pieces, only from a real artifacts directory. Nothing here writes.
import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { HammerError, isHammerError } from '../errors.js';
import { isRunId, RUN_ID_PATTERN } from './run-id.js';
import { ArtifactNameSchema, type RunState } from './run-state.js';
import { MAX_STATE_BYTES, parseState, RunStore, type RunStoreOptions } from './store.js';
import { openSealedState, unsealedBody } from './state-mac.js';

/** Whether a state file's seal verified under the user's key, and if not, why not. */
export type SealStatus = 'verified' | 'unsealed' | 'mismatch';

/** Identifies one version of a file: a change of any of these means it was rewritten. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * One state file looked at: its seal, the state when it parses (a state whose seal does not verify
 * is parsed for display only, never trusted), and what is wrong with it.
 */
export interface InspectedRun {
  runId: string;
  file: string;
  seal: SealStatus;
  state: RunState | null;
  /** Why the file is not trusted or cannot be shown (null for a verified, valid state). */
  problem: string | null;
  stamp: FileStamp;
}

/** A piece of an artifact: its text (at most the bytes asked for) and how large the file is. */
export interface ArtifactHead {
  text: string;
  size: number;
  truncated: boolean;
  stamp: FileStamp;
}

const UNSEALED =
  'it carries no seal, so hammer-box did not write it for you (committed to the repository, copied from elsewhere, or written before state files were sealed)';
const MISMATCH =
  'its seal does not match your state key: changed after hammer-box wrote it, or written under another key';

/** Looks at the runs of one state directory without ever writing to it. */
export class RunInspector {
  readonly #store: RunStore;
  readonly #key: Uint8Array;

  constructor(options: RunStoreOptions) {
    this.#store = new RunStore(options);
    this.#key = options.key.bytes;
  }

  /** The state directory (<repo>/.hammer or a batch task's). */
  get dir(): string {
    return this.#store.dir;
  }

  /** Where the state files are. */
  get runsDir(): string {
    return this.#store.runsDir;
  }

  /** A run's state file path (the run id checked). */
  statePath(runId: string): string {
    return this.#store.statePath(runId);
  }

  /** A run's artifacts directory (the run id checked). */
  artifactsDir(runId: string): string {
    return this.#store.artifactsDir(runId);
  }

  /** The run ids that have a state file here, in name order (an absent directory has none). */
  async runIds(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.runsDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return names
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -'.json'.length))
      .filter((id) => RUN_ID_PATTERN.test(id))
      .sort();
  }

  /** The stamp of a run's state file now, or null when it is gone (cheap: one lstat). */
  async stateStamp(runId: string): Promise<FileStamp | null> {
    const st = await lstat(this.statePath(runId)).catch(() => null);
    return st?.isFile() ? stampOf(st) : null;
  }

  /**
   * Read a run's state file and check its seal. RUN_NOT_FOUND when there is none; a file that cannot
   * be trusted or parsed is returned with its problem, not thrown.
   */
  async inspect(runId: string): Promise<InspectedRun> {
    if (!isRunId(runId)) throw new HammerError('RUN_NOT_FOUND', `no run ${JSON.stringify(runId)}`);
    const file = this.statePath(runId);
    let read: { buf: Buffer; stamp: FileStamp };
    try {
      read = await readFile(file, MAX_STATE_BYTES, 'refuse');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new HammerError('RUN_NOT_FOUND', `no run ${runId} in ${this.runsDir}`, { cause: err });
      const problem = isHammerError(err) ? err.message : `${file}: cannot read: ${(err as Error).message}`;
      return { runId, file, seal: 'unsealed', state: null, problem, stamp: { size: 0, mtimeMs: 0, ino: 0 } };
    }
    const text = read.buf.toString('utf8');
    const opened = openSealedState(text, this.#key);
    const seal: SealStatus = opened.ok ? 'verified' : opened.reason;
    const body = opened.ok ? opened.body : unsealedBody(text);
    const trust = seal === 'verified' ? null : `${file}: not trusted: ${seal === 'unsealed' ? UNSEALED : MISMATCH}`;
    try {
      return { runId, file, seal, state: parseState(file, runId, body), problem: trust, stamp: read.stamp };
    } catch (err) {
      if (!isHammerError(err)) throw err;
      return { runId, file, seal, state: null, problem: trust ?? err.message, stamp: read.stamp };
    }
  }

  /**
   * Up to `maxBytes` of one artifact of a run. The state directory, the runs directory and the run's
   * artifacts directory must each be a real directory (not a symlink) and the artifact a regular
   * file, opened without following a symlink; the name must be an artifact name. Null when absent.
   */
  async readArtifactHead(runId: string, name: string, maxBytes: number): Promise<ArtifactHead | null> {
    if (!ArtifactNameSchema.safeParse(name).success)
      throw new HammerError('INTERNAL', `not an artifact name: ${JSON.stringify(name)}`);
    const dir = this.artifactsDir(runId);
    for (const d of [this.dir, this.runsDir, dir]) {
      const st = await lstat(d).catch(() => null);
      if (st === null) return null;
      if (!st.isDirectory())
        throw new HammerError('STATE_INVALID', `${d} is ${st.isSymbolicLink() ? 'a symlink' : 'not a directory'}`);
    }
    try {
      const { buf, stamp } = await readFile(join(dir, name), maxBytes, 'cut');
      return { text: buf.toString('utf8'), size: stamp.size, truncated: stamp.size > buf.length, stamp };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      if (isHammerError(err)) throw err;
      throw new HammerError('STATE_INVALID', `${join(dir, name)}: cannot read: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }
}

function stampOf(st: { size: number; mtimeMs: number; ino: number }): FileStamp {
  return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
}

/** A regular file, not through a symlink: all of it (refusing one over `max`) or its first `max` bytes. */
async function readFile(path: string, max: number, over: 'refuse' | 'cut'): Promise<{ buf: Buffer; stamp: FileStamp }> {
  const fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new HammerError('STATE_INVALID', `${path}: not a regular file`);
    if (st.size > max && over === 'refuse')
      throw new HammerError('STATE_INVALID', `${path}: ${st.size} bytes, over the ${max}-byte limit`);
    const want = Math.min(st.size, max);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await fh.read(buf, got, want - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { buf: buf.subarray(0, got), stamp: stampOf(st) };
  } finally {
    await fh.close();
  }
}
