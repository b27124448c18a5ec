// Live updates: fs.watch on each source's runs directory (state files are renamed into it, run
// directories made in it) and on the artifacts directory of each run someone is looking at. An
// event only names a file; nothing is read here. Events of one run are gathered (a short debounce,
// bounded so a busy run still updates) into one notice to its subscribers and the list's.
import { watch, type FSWatcher } from 'node:fs';
import type { RunSource } from '../api/run-sources.js';
import type { RunRef } from './links.js';

/** Run ids in the names fs.watch reports (state files, their temp files, artifacts directories). */
const RUN_ID_IN_NAME = /\d{8}T\d{6}Z-[a-z2-7]{6}/;

/** How often missing directories and new sources are looked for while someone watches. */
const RETRY_MS = 1_000;

/** Called with the run that changed. */
export type ChangeListener = (ref: RunRef) => void;

export interface RunWatcherOptions {
  /** The sources now (the list grows as a batch directory fills). */
  sources: () => RunSource[];
  /** Looks for new sources (called every RETRY_MS while someone watches the list). */
  rescan?: () => Promise<void>;
  /** Quiet time before a run's events are passed on. */
  debounceMs?: number;
  /** The longest a run's events are held while they keep coming. */
  maxWaitMs?: number;
}

interface Pending {
  timer: NodeJS.Timeout;
  first: number;
}

/** Watches runs for whoever subscribed: one run (its page) or every run (the list). */
export class RunWatcher {
  readonly #opts: Required<Omit<RunWatcherOptions, 'rescan'>> & Pick<RunWatcherOptions, 'rescan'>;
  readonly #dirs = new Map<string, FSWatcher>();
  readonly #listeners = new Set<{ ref: RunRef | null; fn: ChangeListener }>();
  readonly #pending = new Map<string, Pending>();
  #retry: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(options: RunWatcherOptions) {
    this.#opts = { debounceMs: 25, maxWaitMs: 100, ...options };
  }

  /** Be told when `ref` (null: any run) changes; returns the unsubscribe function. */
  subscribe(ref: RunRef | null, fn: ChangeListener): () => void {
    const entry = { ref, fn };
    this.#listeners.add(entry);
    this.#ensure();
    if (this.#retry === null) {
      this.#retry = setInterval(() => {
        if (this.#listeners.size === 0) return;
        const rescan = [...this.#listeners].some((l) => l.ref === null) ? this.#opts.rescan : undefined;
        void (rescan ? rescan() : Promise.resolve()).catch(() => undefined).then(() => this.#ensure());
      }, RETRY_MS);
      this.#retry.unref();
    }
    return () => {
      this.#listeners.delete(entry);
      this.#ensure();
    };
  }

  /** Stop watching everything. */
  close(): void {
    this.#closed = true;
    if (this.#retry) clearInterval(this.#retry);
    for (const w of this.#dirs.values()) w.close();
    this.#dirs.clear();
    for (const p of this.#pending.values()) clearTimeout(p.timer);
    this.#pending.clear();
    this.#listeners.clear();
  }

  /** Watch what the subscribers need: every runs directory, and the artifacts directory of each run watched alone. */
  #ensure(): void {
    if (this.#closed) return;
    const want = new Map<string, { source: RunSource; runId: string | null }>();
    for (const source of this.#opts.sources()) {
      want.set(source.inspector.runsDir, { source, runId: null });
      for (const l of this.#listeners)
        if (l.ref && l.ref.source === source.key)
          want.set(source.inspector.artifactsDir(l.ref.runId), { source, runId: l.ref.runId });
    }
    if (this.#listeners.size === 0) want.clear();
    for (const [dir, w] of this.#dirs)
      if (!want.has(dir)) {
        w.close();
        this.#dirs.delete(dir);
      }
    for (const [dir, what] of want) {
      if (this.#dirs.has(dir)) continue;
      let w: FSWatcher;
      try {
        w = watch(dir, { persistent: false }, (_event, name) => {
          const runId = what.runId ?? (typeof name === 'string' ? RUN_ID_IN_NAME.exec(name)?.[0] : undefined);
          if (runId) this.#changed({ source: what.source.key, runId });
        });
      } catch {
        continue; // not there (yet): tried again on the next round
      }
      w.on('error', () => {
        w.close();
        this.#dirs.delete(dir);
      });
      this.#dirs.set(dir, w);
    }
  }

  #changed(ref: RunRef): void {
    const key = `${ref.source}/${ref.runId}`;
    const now = Date.now();
    const pending = this.#pending.get(key);
    if (pending) clearTimeout(pending.timer);
    const first = pending?.first ?? now;
    const wait = Math.max(0, Math.min(this.#opts.debounceMs, first + this.#opts.maxWaitMs - now));
    const timer = setTimeout(() => {
      this.#pending.delete(key);
      // a run directory made in a runs directory: its artifacts are watched from now on
      this.#ensure();
      for (const l of this.#listeners)
        if (l.ref === null || (l.ref.source === ref.source && l.ref.runId === ref.runId)) l.fn(ref);
    }, wait);
    this.#pending.set(key, { timer, first });
  }
}
