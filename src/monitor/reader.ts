// The monitor's reads of runs, through the API's sources and inspectors: state files re-read only
// when their stamp (size, mtime, inode) changed, artifacts likewise, with a bound on what is kept.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunSource, RunSources } from '../api/run-sources.js';
import { isHammerError } from '../errors.js';
import { isRunId } from '../state/run-id.js';
import type { ArtifactHead, FileStamp, InspectedRun } from '../state/run-inspect.js';
import type { RunRef } from './links.js';

/** One run found: where it is and what its state file holds. */
export interface ListedRun {
  ref: RunRef;
  source: RunSource;
  run: InspectedRun;
}

/** Artifact bytes kept in memory at most (the oldest are dropped first). */
const MAX_CACHED_BYTES = 128 * 1024 * 1024;
/** How often the directories given are looked through again for new state directories. */
const RESCAN_MS = 2_000;

const same = (a: FileStamp, b: FileStamp): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

/** Reads runs and their artifacts for the pages, keeping what has not changed. */
export class RunReader {
  readonly #sources: RunSources;
  readonly #states = new Map<string, InspectedRun>();
  readonly #artifacts = new Map<string, ArtifactHead>();
  #cachedBytes = 0;
  #scannedAt = 0;

  constructor(sources: RunSources) {
    this.#sources = sources;
  }

  /** The sources known now. */
  sources(): RunSource[] {
    return this.#sources.list();
  }

  /** Every run of every source: verified runs newest first, then the state files not trusted. */
  async listing(): Promise<ListedRun[]> {
    if (Date.now() - this.#scannedAt > RESCAN_MS) {
      this.#scannedAt = Date.now();
      await this.#sources.rescan();
    }
    const out: ListedRun[] = [];
    for (const source of this.#sources.list()) {
      for (const runId of await source.inspector.runIds()) {
        const listed = await this.run({ source: source.key, runId });
        if (listed) out.push(listed);
      }
    }
    const trusted = (r: ListedRun): boolean => r.run.seal === 'verified' && r.run.state !== null;
    const created = (r: ListedRun): string => r.run.state?.created_at ?? '';
    return out.sort(
      (a, b) =>
        Number(trusted(b)) - Number(trusted(a)) ||
        created(b).localeCompare(created(a)) ||
        b.ref.runId.localeCompare(a.ref.runId),
    );
  }

  /** One run, or null when there is no such source or run. */
  async run(ref: RunRef): Promise<ListedRun | null> {
    const source = this.#sources.get(ref.source);
    if (source === undefined || !isRunId(ref.runId)) return null;
    const key = `${source.key}/${ref.runId}`;
    const stamp = await source.inspector.stateStamp(ref.runId);
    if (stamp === null) {
      this.#states.delete(key);
      return null;
    }
    let run = this.#states.get(key);
    if (run === undefined || !same(run.stamp, stamp)) {
      try {
        run = await source.inspector.inspect(ref.runId);
      } catch {
        return null;
      }
      this.#states.set(key, run);
    }
    return { ref: { source: source.key, runId: ref.runId }, source, run };
  }

  /**
   * Up to `max` bytes of an artifact the caller has checked the run's state names; null when absent,
   * or when it is not read because a directory on its way is a symlink or it is not a regular file.
   */
  async artifact(ref: RunRef, name: string, max: number): Promise<ArtifactHead | null> {
    const source = this.#sources.get(ref.source);
    if (source === undefined || !isRunId(ref.runId)) return null;
    const key = `${source.key}/${ref.runId}/${name}@${max}`;
    const cached = this.#artifacts.get(key);
    if (cached) {
      const st = await lstat(join(source.inspector.artifactsDir(ref.runId), name)).catch(() => null);
      if (st?.isFile() && same(cached.stamp, { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino })) return cached;
    }
    let head: ArtifactHead | null;
    try {
      head = await source.inspector.readArtifactHead(ref.runId, name, max);
    } catch (err) {
      // a directory on the way is a symlink, or the file is not a regular file: not shown
      if (!isHammerError(err, 'STATE_INVALID')) throw err;
      head = null;
    }
    this.#forget(key);
    if (head === null) return null;
    this.#artifacts.set(key, head);
    this.#cachedBytes += head.text.length;
    for (const [k, v] of this.#artifacts) {
      if (this.#cachedBytes <= MAX_CACHED_BYTES) break;
      this.#forget(k, v.text.length);
    }
    return head;
  }

  #forget(key: string, size = this.#artifacts.get(key)?.text.length ?? 0): void {
    if (this.#artifacts.delete(key)) this.#cachedBytes -= size;
  }
}
