// The host-only bare repository where hammer-box builds the branch from the diffs it accepted.
import { copyFile, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HammerError } from '../errors.js';
import { gitText, runGit, runGitResult, type GitOptions, type GitResult } from './git-exec.js';
import { commitMessage } from './commit-message.js';
import { assertObjectId } from './object-id.js';
import { grepTree, type GrepHit } from './grep-tree.js';
import { indexChanges, indexEntries } from './index-file.js';
import { ObjectReader } from './object-reader.js';
import { readBlobs, readFiles, treePaths, type BlobText, type ReadFilesResult } from './read-files.js';
import { entryOf, parseTree, treeEntries, type TreeEntry } from './tree-entries.js';
import { isSafePath } from './safe-path.js';
import { treeChanges, type TreeChangeEntry } from './tree-changes.js';
import type { UserRepo } from './user-repo.js';

/** How many diffs a workbench keeps (see diff). */
const KEPT_DIFFS = 4;
/** How many tree listings a workbench keeps (see listTree). */
const KEPT_LISTINGS = 6;

/** Who a commit is by: its committer (hammer-box), and its author unless applyPatch names another. */
export interface Identity {
  name: string;
  email: string;
}

/** The `git apply` flags applyPatch accepts (the apply ladder's; never --reject or --unsafe-paths). */
export const WORKBENCH_APPLY_FLAGS: readonly string[] = ['--recount', '--ignore-whitespace'];

/** The outcome of applying one patch: a new commit, or git's reason for refusing it. */
export type ApplyResult = { ok: true; commit: string; tree: string } | { ok: false; message: string };

/** Options for Workbench.create. */
export interface WorkbenchOptions {
  identity: Identity;
  /** Parent directory of the temp repo (default os.tmpdir()). */
  tmpDir?: string;
  signal?: AbortSignal;
}

/**
 * A bare temp repository, created with `git init` (empty template) whose objects/info/alternates
 * names the user's object directory. Deliberately neither `clone --local` nor `--no-local`:
 * - both start git-upload-pack in the user's repository, which reads its hostile config;
 *   --no-local also runs pack-objects there, and --local hardlinks or copies its whole object
 *   store (and dies on a cross-device hardlink when --local is explicit);
 * - alternates are a list of directories git reads objects from: nothing in them is executed, the
 *   user's own alternates are followed the same read-only way, and the workbench's config is ours
 *   (no hooks, no extensions.partialClone, so a missing object is an error, never a lazy fetch);
 * - creating the workbench costs nothing for a large repository, and every object hammer-box
 *   writes (blobs, trees, commits) lands in the workbench only, never in the user's repo, until
 *   deliverBranch copies exactly the branch's new objects over.
 */
/** How a patch is applied and committed (see Workbench.applyPatch). */
export interface ApplyPatchOptions {
  iteration: number;
  summary: string;
  message?: string;
  author?: Identity;
  date?: Date;
  signal?: AbortSignal;
  flags?: readonly string[];
}

export class Workbench {
  private headCommit: string;
  private headTree: string;
  private queue: Promise<unknown> = Promise.resolve();
  /** Trees made, by base tree, flags and patch: applyPatch of a patch filesAfter checked reuses them. */
  private readonly treesAfter = new Map<string, string>();
  /** The index file of the last tree treeNow made (its next base, once that tree is the head). */
  private keptIndex: { tree: string; path: string } | undefined;
  /** The scratch index filesAfter left (a patch applied on head(), by treeKey), its tree not written yet. */
  private pendingIndex: { key: string; path: string } | undefined;
  /** Listings by path, made on first lookup (see listedPaths). */
  private readonly byPath = new WeakMap<readonly TreeEntry[], Map<string, TreeEntry>>();
  /** The one cat-file process the prompt's and the gate's reads go through. */
  private readonly objects: ObjectReader;
  private readonly listings = new Map<
    { commit: string; max: number },
    Promise<{ entries: TreeEntry[]; truncated: boolean }>
  >();
  /** The last diffs made, by their commits and cap: the same two commits always diff the same. */
  private readonly diffs = new Map<string, Promise<string>>();
  private disposed = false;

  private constructor(
    /** The temp directory (the bare repository itself). */
    readonly dir: string,
    readonly userRepo: UserRepo,
    readonly baseCommit: string,
    baseTree: string,
    private readonly identity: Identity,
  ) {
    this.headCommit = baseCommit;
    this.headTree = baseTree;
    this.objects = new ObjectReader(this.gitOptions());
  }

  /** Create a workbench whose head is `baseCommit` (a commit of the user's repo). */
  static async create(userRepo: UserRepo, baseCommit: string, opts: WorkbenchOptions): Promise<Workbench> {
    assertObjectId(baseCommit);
    if (/[\n"]/.test(userRepo.objectsDir)) {
      throw new HammerError('REPO_INVALID', `unsupported characters in the repository path: ${userRepo.objectsDir}`);
    }
    const dir = await mkdtemp(join(opts.tmpDir ?? tmpdir(), 'hammer-wb-'));
    try {
      const signal = opts.signal ? { signal: opts.signal } : {};
      await runGit(['init', '--bare', '--quiet', '--template=', `--object-format=${userRepo.objectFormat}`, dir], {
        cwd: dir,
        ...signal,
      });
      await writeFile(join(dir, 'objects', 'info', 'alternates'), `${userRepo.objectsDir}\n`);
      const git: GitOptions = { gitDir: dir, ...signal };
      const tree = await gitText(['rev-parse', '--verify', '--quiet', `${baseCommit}^{tree}`], git).catch(
        (err: unknown) => {
          if (opts.signal?.aborted) throw err;
          return '';
        },
      );
      if (tree === '') {
        throw new HammerError('REPO_INVALID', `commit ${baseCommit} cannot be read from ${userRepo.root}`, {
          hint: 'run `git fsck` in the repository',
        });
      }
      return new Workbench(dir, userRepo, baseCommit, tree, opts.identity);
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Git options that run a command in the workbench. */
  gitOptions(extra: Omit<GitOptions, 'gitDir' | 'cwd'> = {}): GitOptions {
    return { ...extra, gitDir: this.dir, cwd: this.dir };
  }

  /** Run a hardened git command in the workbench; throws GIT_FAILED on a non-zero exit. */
  git(args: readonly string[], extra: Omit<GitOptions, 'gitDir' | 'cwd'> = {}): Promise<GitResult> {
    return runGit(args, this.gitOptions(extra));
  }

  /** The current tip: the base, then one commit per applied patch. */
  head(): string {
    return this.headCommit;
  }

  /** The tree of the current tip. */
  tree(): string {
    return this.headTree;
  }

  /** Move the tip back to an earlier commit of this workbench (drops a patch the sandbox refused). */
  resetHead(commit: string, tree: string): void {
    assertObjectId(commit);
    assertObjectId(tree);
    this.headCommit = commit;
    this.headTree = tree;
  }

  /**
   * Apply a unified diff on top of head() through a temporary index (`git apply --cached`, never
   * --unsafe-paths or --reject; `flags` only from WORKBENCH_APPLY_FLAGS) and commit it with
   * `message` (default: the summary as subject, the iteration as a trailer), authored by `author`
   * (default: the workbench's identity, which commits). A patch git refuses, or one that changes
   * nothing, is returned as data with git's message.
   */
  applyPatch(patch: string, opts: ApplyPatchOptions): Promise<ApplyResult> {
    return this.queuedApply(opts.flags, () => this.applyNow(patch, opts));
  }

  /**
   * `paths` as `patch` would leave them on top of head() (see readFiles), or git's message when the
   * patch does not apply. The patch goes into a scratch index as in applyPatch, and the paths are
   * looked up in that index: no tree is written here. The index is kept, so applyPatch of the same
   * patch next only writes its tree (off the path of the syntax gate that asks this).
   */
  async filesAfter(
    patch: string,
    paths: readonly string[],
    opts: { maxBytesPerFile: number; signal?: AbortSignal; flags?: readonly string[] },
  ): Promise<{ ok: true; read: ReadFilesResult } | { ok: false; message: string }> {
    const after = await this.queuedApply(opts.flags, () => this.indexNow(patch, paths, opts));
    if (!after.ok) return after;
    const max = opts.maxBytesPerFile;
    const signal = opts.signal ? { signal: opts.signal } : {};
    if ('tree' in after)
      return { ok: true, read: await this.readFiles(after.tree, paths, { maxBytesPerFile: max, ...signal }) };
    return { ok: true, read: await readFiles(this.gitOptions(signal), this.objects, '', paths, max, after.listed) };
  }

  /**
   * What `patch` does to head()'s tree when git applies it with `flags`: every path whose entry
   * differs, with its mode and id on each side (what `git diff-tree -r` of the two trees says), or
   * git's message when it does not apply. Read from the patch's scratch index (the syntax gate's,
   * or made here: one `git apply --cached`) against the index of head()'s tree, so no tree is
   * written and no diff run; the scratch index is kept, so applyPatch of the same patch next only
   * writes its tree and commits it. An index of a version this does not read: git writes the tree
   * and compares the two.
   */
  effectOf(
    patch: string,
    opts: { signal?: AbortSignal; flags?: readonly string[] } = {},
  ): Promise<{ ok: true; changes: TreeChangeEntry[] } | { ok: false; message: string }> {
    return this.queuedApply(opts.flags, async () => {
      if (this.disposed) throw new HammerError('INTERNAL', 'workbench already disposed');
      const base = this.headTree;
      const key = treeKey(base, opts.flags, patch);
      let made = this.treesAfter.get(key);
      if (made === undefined) {
        const indexed = await this.changesInIndex(patch, key, opts);
        if (indexed !== null) return indexed;
      }
      if (made === undefined) {
        const after = await this.treeNow(patch, opts);
        if (!after.ok) return after;
        made = after.tree;
      }
      const changes = await treeChanges(base, made, this.gitOptions(opts.signal ? { signal: opts.signal } : {}));
      return { ok: true, changes };
    });
  }

  // the patch's effect read from its scratch index (made now unless the gate left it) against the
  // head tree's index; null when either is an index indexChanges does not read
  private async changesInIndex(
    patch: string,
    key: string,
    opts: { signal?: AbortSignal; flags?: readonly string[] },
  ): Promise<{ ok: true; changes: TreeChangeEntry[] } | { ok: false; message: string } | null> {
    let pending = this.pendingIndex?.key === key ? this.pendingIndex : undefined;
    if (!pending) {
      const index = join(this.dir, `check-${process.pid}.index`);
      const withIndex = { env: { GIT_INDEX_FILE: index }, ...(opts.signal ? { signal: opts.signal } : {}) };
      try {
        const applied = await this.applyInIndex(index, patch, opts.flags, withIndex);
        if (!applied.ok) return applied;
        const path = join(this.dir, `pending-${process.pid}.index`);
        await rename(index, path);
        pending = this.pendingIndex = { key, path };
      } finally {
        await rm(index, { force: true });
      }
    }
    // applyInIndex left the head tree's index as the kept one
    const baseIndex = this.keptIndex?.tree === this.headTree ? this.keptIndex.path : undefined;
    if (baseIndex === undefined) return null;
    const [before, after] = await Promise.all([readFile(baseIndex), readFile(pending.path)]);
    const changes = indexChanges(before, after, this.userRepo.objectFormat === 'sha256' ? 32 : 20);
    return changes === null ? null : { ok: true, changes };
  }

  /** Run `work` after what is queued, once every git apply flag is one the workbench allows. */
  private queuedApply<T>(flags: readonly string[] | undefined, work: () => Promise<T>): Promise<T> {
    for (const f of flags ?? []) {
      if (!WORKBENCH_APPLY_FLAGS.includes(f))
        return Promise.reject(
          new HammerError('INTERNAL', `git apply flag not allowed in the workbench: ${JSON.stringify(f)}`),
        );
    }
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The entries of `commit`'s tree (symlinks and submodules marked by `kind`), at most maxEntries.
   * A commit's tree never changes: it is listed once (the last few listings are kept), and a
   * listing made with a cap at least as high serves a lower one (prepare's listing serves the
   * preflight, the archive and the prompt).
   */
  listTree(
    commit: string,
    opts: { maxEntries?: number; signal?: AbortSignal } = {},
  ): Promise<{ entries: TreeEntry[]; truncated: boolean }> {
    const max = opts.maxEntries ?? Number.POSITIVE_INFINITY;
    for (const [key, listed] of this.listings) {
      if (key.commit !== commit || key.max < max) continue;
      return key.max === max
        ? listed
        : listed.then((l) => (l.entries.length > max ? { entries: l.entries.slice(0, max), truncated: true } : l));
    }
    const key = { commit, max };
    const listed = this.readTree(commit, opts);
    this.listings.set(key, listed);
    listed.catch(() => this.listings.delete(key));
    // the oldest go: a run lists each head it reaches (and the next one ahead), and a large tree's
    // listing is megabytes
    if (this.listings.size > KEPT_LISTINGS) this.listings.delete(this.listings.keys().next().value!);
    return listed;
  }

  private async readTree(
    commit: string,
    opts: { maxEntries?: number; signal?: AbortSignal },
  ): Promise<{ entries: TreeEntry[]; truncated: boolean }> {
    const max = opts.maxEntries ?? Number.POSITIVE_INFINITY;
    const entries: TreeEntry[] = [];
    let truncated = false;
    for await (const entry of treeEntries(commit, this.gitOptions(opts.signal ? { signal: opts.signal } : {}))) {
      if (entries.length >= max) {
        truncated = true;
        break;
      }
      entries.push(entry);
    }
    return { entries, truncated };
  }

  /**
   * The text of regular files at `commit` (never symlinks, submodules or binary blobs), capped per
   * file. Paths are looked up in the commit's listing when one was made (else one ls-tree), and
   * the blobs read through the workbench's one cat-file process.
   */
  async readFiles(
    commit: string,
    paths: readonly string[],
    opts: { maxBytesPerFile: number; signal?: AbortSignal },
  ): Promise<ReadFilesResult> {
    const git = this.gitOptions(opts.signal ? { signal: opts.signal } : {});
    const listed = (await this.listedPaths(commit)) ?? (await this.walkPaths(commit, paths, opts.signal));
    return readFiles(git, this.objects, commit, paths, opts.maxBytesPerFile, listed);
  }

  /**
   * The entries of `paths` in a commit's or tree's tree, found by reading the trees on their way
   * through the workbench's cat-file (no ls-tree); a path that is not a file, a symlink or a
   * submodule there is left out. Undefined when `at` is neither a commit nor a tree.
   */
  private async walkPaths(
    at: string,
    paths: readonly string[],
    signal?: AbortSignal,
  ): Promise<ReadonlyMap<string, TreeEntry> | undefined> {
    const hashBytes = this.userRepo.objectFormat === 'sha256' ? 32 : 20;
    const trees = new Map<string, Promise<Map<string, { mode: string; oid: string }> | null>>();
    const treeOf = (oid: string): Promise<Map<string, { mode: string; oid: string }> | null> => {
      let t = trees.get(oid);
      if (!t) {
        t = this.objects.read([oid], Number.POSITIVE_INFINITY, signal).then(([r]) => {
          // a tree the repository lacks (a partial clone) fails, as ls-tree would; never fetched
          if (!r) throw new HammerError('GIT_FAILED', `git cat-file could not read tree ${oid}`);
          return r.type === 'tree' ? parseTree(r.data, hashBytes) : null;
        });
        trees.set(oid, t);
      }
      return t;
    };
    const [top] = await this.objects.read([at], 64 * 1024, signal);
    const rootTree =
      top?.type === 'tree'
        ? at
        : top?.type === 'commit'
          ? /^tree ([0-9a-f]+)$/m.exec(top.data.toString('latin1'))?.[1]
          : undefined;
    if (rootTree === undefined) return undefined;
    const found = new Map<string, TreeEntry>();
    await Promise.all(
      treePaths(paths)
        .filter(isSafePath)
        .map(async (path) => {
          const parts = path.split('/');
          let dir: string | undefined = rootTree;
          for (let i = 0; dir !== undefined && i < parts.length; i++) {
            const entry: { mode: string; oid: string } | undefined = (await treeOf(dir))?.get(parts[i]!);
            if (!entry) return;
            if (i < parts.length - 1) dir = entry.mode === '40000' ? entry.oid : undefined;
            else {
              const listed = entryOf(path, entry.mode, entry.oid);
              if (listed) found.set(path, listed);
            }
          }
        }),
    );
    return found;
  }

  /** The text of blobs of known entries of a tree (listTree's), by their ids, capped per file; in order (a missing blob is GIT_FAILED). */
  readBlobs(
    blobs: readonly Pick<TreeEntry, 'path' | 'oid'>[],
    opts: { maxBytesPerFile: number; signal?: AbortSignal },
  ): Promise<(BlobText | null)[]> {
    if (this.disposed) return Promise.reject(new HammerError('INTERNAL', 'workbench already disposed'));
    return readBlobs(this.objects, blobs, opts.maxBytesPerFile, opts.signal);
  }

  /** `commit`'s entries by path from a complete listing made already, else undefined. */
  private async listedPaths(commit: string): Promise<ReadonlyMap<string, TreeEntry> | undefined> {
    for (const [key, listed] of this.listings) {
      if (key.commit !== commit) continue;
      const l = await listed.catch(() => undefined);
      if (!l || l.truncated) continue;
      let byPath = this.byPath.get(l.entries);
      if (!byPath) {
        byPath = new Map(l.entries.map((e) => [e.path, e]));
        this.byPath.set(l.entries, byPath);
      }
      return byPath;
    }
    return undefined;
  }

  /** Lines of `commit`'s text files holding any of the fixed strings (see grepTree). */
  grep(
    commit: string,
    strings: readonly string[],
    opts: {
      words: boolean;
      maxHits: number;
      paths?: readonly string[];
      maxBytes?: number;
      timeoutMs?: number;
      signal?: AbortSignal;
    },
  ): Promise<GrepHit[]> {
    const { signal, ...rest } = opts;
    return grepTree(commit, strings, { ...this.gitOptions(signal ? { signal } : {}), ...rest });
  }

  /**
   * The unified diff between two commits, without external diff drivers or textconv. The last few
   * are kept: a prompt asks for the diff the loop already made ahead (after an apply) or made for
   * the prompt before (after a rejected patch).
   */
  diff(from: string, to: string, opts: { signal?: AbortSignal; maxBytes?: number } = {}): Promise<string> {
    assertObjectId(from);
    assertObjectId(to);
    if (from === to) return Promise.resolve('');
    const key = `${from} ${to} ${opts.maxBytes ?? ''}`;
    const known = this.diffs.get(key);
    if (known) return known;
    const made = this.diffNow(from, to, opts);
    this.diffs.set(key, made);
    made.catch(() => this.diffs.delete(key));
    if (this.diffs.size > KEPT_DIFFS) this.diffs.delete(this.diffs.keys().next().value!);
    return made;
  }

  private async diffNow(from: string, to: string, opts: { signal?: AbortSignal; maxBytes?: number }): Promise<string> {
    const result = await this.git(
      ['diff', '--no-ext-diff', '--no-textconv', '--no-color', '--no-renames', from, to, '--'],
      {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.maxBytes !== undefined ? { maxBuffer: opts.maxBytes } : {}),
      },
    );
    return result.stdout.toString('utf8');
  }

  /** Remove the temp repository (idempotent). */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.objects.close();
    await this.queue;
    await rm(this.dir, { recursive: true, force: true });
  }

  private async applyNow(patch: string, opts: ApplyPatchOptions): Promise<ApplyResult> {
    if (this.disposed) throw new HammerError('INTERNAL', 'workbench already disposed');
    const signal = opts.signal ? { signal: opts.signal } : {};
    // the syntax gate's filesAfter of this very patch on this head already made the tree (an index
    // of a version filesAfter does not read)
    const made = this.treesAfter.get(treeKey(this.headTree, opts.flags, patch));
    const after = made === undefined ? await this.treeNow(patch, opts) : { ok: true as const, tree: made };
    if (!after.ok) return after;
    const { tree } = after;
    if (tree === this.headTree) return { ok: false, message: 'the patch applies but changes nothing' };
    const date = `${Math.floor((opts.date ?? new Date()).getTime() / 1000)} +0000`;
    const commit = (
      await this.git(['commit-tree', '--no-gpg-sign', tree, '-p', this.headCommit, '-F', '-'], {
        ...signal,
        input:
          opts.message ??
          commitMessage({
            subject: opts.summary,
            body: '',
            trailers: [['Hammer-Box-Iteration', String(opts.iteration)]],
          }),
        env: {
          GIT_AUTHOR_NAME: (opts.author ?? this.identity).name,
          GIT_AUTHOR_EMAIL: (opts.author ?? this.identity).email,
          GIT_AUTHOR_DATE: date,
          GIT_COMMITTER_NAME: this.identity.name,
          GIT_COMMITTER_EMAIL: this.identity.email,
          GIT_COMMITTER_DATE: date,
        },
      })
    ).stdout
      .toString('utf8')
      .trim();
    this.headCommit = commit;
    this.headTree = tree;
    return { ok: true, commit, tree };
  }

  // the patch in a scratch index, and `paths`' entries read from it (a tree only when the index is
  // of a version indexEntries does not read)
  private async indexNow(
    patch: string,
    paths: readonly string[],
    opts: { signal?: AbortSignal; flags?: readonly string[] },
  ): Promise<
    { ok: true; listed: ReadonlyMap<string, TreeEntry> } | { ok: true; tree: string } | { ok: false; message: string }
  > {
    if (this.disposed) throw new HammerError('INTERNAL', 'workbench already disposed');
    const key = treeKey(this.headTree, opts.flags, patch);
    const made = this.treesAfter.get(key);
    if (made !== undefined) return { ok: true, tree: made };
    const index = join(this.dir, `check-${process.pid}.index`);
    const withIndex = { env: { GIT_INDEX_FILE: index }, ...(opts.signal ? { signal: opts.signal } : {}) };
    try {
      const applied = await this.applyInIndex(index, patch, opts.flags, withIndex);
      if (!applied.ok) return applied;
      const wanted = new Set(treePaths(paths).filter(isSafePath));
      const entries = indexEntries(await readFile(index), this.userRepo.objectFormat === 'sha256' ? 32 : 20, wanted);
      if (entries === null) return { ok: true, tree: await this.treeOfIndex(index, key, withIndex) };
      const pending = join(this.dir, `pending-${process.pid}.index`);
      await rename(index, pending);
      this.pendingIndex = { key, path: pending };
      const listed = new Map<string, TreeEntry>();
      for (const [path, e] of entries) {
        const entry = entryOf(path, e.mode, e.oid);
        if (entry) listed.set(path, entry);
      }
      return { ok: true, listed };
    } finally {
      await rm(index, { force: true });
    }
  }

  // read the head's tree into `index` (or copy the index kept from making it), then apply the patch there
  private async applyInIndex(
    index: string,
    patch: string,
    flags: readonly string[] | undefined,
    withIndex: { env: Record<string, string>; signal?: AbortSignal },
  ): Promise<{ ok: true } | { ok: false; message: string }> {
    // the index of the last tree made is kept: the next patch usually goes on that tree (now the
    // head); else the head tree's index is read once and kept (what the policy compares against)
    if (this.keptIndex?.tree !== this.headTree) {
      const base = join(this.dir, `base-${process.pid}.index`);
      await this.git(['read-tree', this.headTree], { ...withIndex, env: { GIT_INDEX_FILE: base } });
      this.keptIndex = { tree: this.headTree, path: base };
    }
    await copyFile(this.keptIndex.path, index);
    const applied = await runGitResult(
      ['apply', '--cached', '--whitespace=nowarn', ...(flags ?? []), '-'],
      this.gitOptions({ ...withIndex, input: patch }),
    );
    if (applied.exitCode !== 0)
      return { ok: false, message: applied.stderr.trim() || `git apply exited with ${applied.exitCode}` };
    return { ok: true };
  }

  // write the tree of `index` (a patch applied on head() with treeKey `key`), remember it, keep the index
  private async treeOfIndex(
    index: string,
    key: string,
    withIndex: { env: Record<string, string>; signal?: AbortSignal },
  ): Promise<string> {
    const tree = (await this.git(['write-tree'], { ...withIndex, env: { GIT_INDEX_FILE: index } })).stdout
      .toString('utf8')
      .trim();
    // a few iterations' worth: each iteration gates at most a handful of candidates
    if (this.treesAfter.size >= 16) this.treesAfter.clear();
    this.treesAfter.set(key, tree);
    const keep = join(this.dir, `tree-${process.pid}.index`);
    await rename(index, keep);
    this.keptIndex = { tree, path: keep };
    return tree;
  }

  private async treeNow(
    patch: string,
    opts: { signal?: AbortSignal; flags?: readonly string[] },
  ): Promise<{ ok: true; tree: string } | { ok: false; message: string }> {
    if (this.disposed) throw new HammerError('INTERNAL', 'workbench already disposed');
    const key = treeKey(this.headTree, opts.flags, patch);
    const signal = opts.signal ? { signal: opts.signal } : {};
    // the gate's filesAfter of this very patch on this head left its index: only the tree is left to write
    const pending = this.pendingIndex;
    this.pendingIndex = undefined;
    if (pending?.key === key)
      return { ok: true, tree: await this.treeOfIndex(pending.path, key, { env: {}, ...signal }) };
    const index = join(this.dir, `check-${process.pid}.index`);
    const withIndex = { env: { GIT_INDEX_FILE: index }, ...signal };
    try {
      const applied = await this.applyInIndex(index, patch, opts.flags, withIndex);
      if (!applied.ok) return applied;
      return { ok: true, tree: await this.treeOfIndex(index, key, withIndex) };
    } finally {
      await rm(index, { force: true });
    }
  }
}

/** The key of a patch's result on a base tree (git apply is deterministic in these three). */
function treeKey(base: string, flags: readonly string[] | undefined, patch: string): string {
  return `${base}\0${(flags ?? []).join(' ')}\0${patch}`;
}
