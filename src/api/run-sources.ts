// Where `hammer-box monitor` finds runs: a repository's state directory (from its config, as
// `runs list` finds it), and every state directory under a directory of runs (a batch's output, or
// a copy of someone's .hammer). Read-only: nothing here creates or writes a file.
import { lstat, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { resolveConfig } from '../config/resolve.js';
import { HammerError } from '../errors.js';
import { RUN_ID_PATTERN } from '../state/run-id.js';
import { ConversationStore } from '../state/conversation-store.js';
import { assertDirectory } from './repo-path.js';
import { RunInspector } from '../state/run-inspect.js';
import { stateDirIn } from '../state/state-dir.js';
import { loadStateKey, type StateKey } from '../state/state-key.js';

/** One state directory the monitor reads runs from. */
export interface RunSource {
  /** Stable while the monitor runs: the part of a URL that names this source. */
  key: string;
  /** What to call it on the page: the repository path, or the path under the directory given. */
  label: string;
  inspector: RunInspector;
  /** The chat and plan conversations kept in the same state directory (sealed with the same key). */
  conversations: ConversationStore;
}

/** What to read runs from: a repository (its [state] dir), directories holding runs, or both. */
export interface RunSourcesOptions {
  repo?: string;
  dirs?: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * How deep below a given directory runs are looked for: deep enough for a batch's attempts
 * (`<dir>/tasks/<id>/attempt-<k>/repo/.hammer/runs/`).
 */
const MAX_DEPTH = 6;
/** Directory entries looked at in one scan, at most (a scan never walks a whole disk). */
const MAX_ENTRIES = 20_000;
/** Never descended into (`objects`: a git object store, as in a batch's attempt repositories). */
const SKIP = new Set(['.git', 'node_modules', 'objects']);

/** The sources of a monitor: found once at start, and again (new state directories only) by rescan(). */
export class RunSources {
  readonly #byDir = new Map<string, RunSource>();
  readonly #key: StateKey;
  readonly #roots: string[];

  private constructor(key: StateKey, roots: string[]) {
    this.#key = key;
    this.#roots = roots;
  }

  /** Open the sources; REPO_INVALID for a path that is not a directory, USAGE when there is nothing to read. */
  static async open(options: RunSourcesOptions): Promise<RunSources> {
    const dirs = (options.dirs ?? []).map((d) => resolve(d));
    for (const d of [...(options.repo === undefined ? [] : [resolve(options.repo)]), ...dirs]) {
      await assertDirectory(d, 'pass --repo <repository> or --dir <directory holding runs>');
    }
    if (options.repo === undefined && dirs.length === 0)
      throw new HammerError('USAGE', 'nothing to monitor', { hint: 'pass --repo <path> or --dir <path>' });
    const key = await loadStateKey(options.env);
    const sources = new RunSources(key, dirs);
    if (options.repo !== undefined) {
      const repo = resolve(options.repo);
      const { config } = await resolveConfig({ repo, env: options.env });
      sources.#add(await stateDirIn(repo, config.state.dir), repo);
    }
    await sources.rescan();
    return sources;
  }

  /** Every source found so far, in the order found. */
  list(): RunSource[] {
    return [...this.#byDir.values()];
  }

  /** The source with this key. */
  get(key: string): RunSource | undefined {
    return this.list().find((s) => s.key === key);
  }

  /** The first source with a state file for `runId`. */
  async find(runId: string): Promise<RunSource | undefined> {
    for (const source of this.list()) if ((await source.inspector.stateStamp(runId)) !== null) return source;
    return undefined;
  }

  /** Look for state directories under the directories given that appeared since the last scan. */
  async rescan(): Promise<void> {
    for (const root of this.#roots) {
      for (const stateDir of await findStateDirs(root)) {
        const rel = relative(root, stateDir);
        this.#add(stateDir, rel === '' ? root : join(basename(root), rel));
      }
    }
  }

  #add(stateDir: string, label: string): void {
    if (this.#byDir.has(stateDir)) return;
    this.#byDir.set(stateDir, {
      key: String(this.#byDir.size),
      label,
      inspector: new RunInspector({ dir: stateDir, key: this.#key }),
      conversations: new ConversationStore({ dir: stateDir, key: this.#key }),
    });
  }
}

/**
 * State directories at or below `root`: the parent of every `runs` directory holding a run's state
 * file, and `root`'s parent when `root` itself is such a `runs` directory. Symlinks are never followed.
 */
export async function findStateDirs(root: string, maxDepth = MAX_DEPTH): Promise<string[]> {
  const found: string[] = [];
  let budget = MAX_ENTRIES;
  const walk = async (dir: string, depth: number): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    budget -= names.length;
    if (names.some((n) => n.endsWith('.json') && RUN_ID_PATTERN.test(n.slice(0, -5)))) {
      // a runs directory: its parent is the state directory (<dir>/runs/<id>.json)
      if (basename(dir) === 'runs') found.push(dirname(dir));
    }
    if (depth >= maxDepth) return;
    for (const name of names.sort()) {
      if (budget <= 0) return;
      if (SKIP.has(name) || RUN_ID_PATTERN.test(name)) continue;
      const path = join(dir, name);
      const st = await lstat(path).catch(() => null);
      if (st?.isDirectory()) await walk(path, depth + 1);
    }
  };
  await walk(root, 0);
  return found;
}
