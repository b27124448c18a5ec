// Making the sandbox's copy a git repository. It can run after the baseline test and while the
// model generates, off the path to the first model request: init commits exactly the paths the
// host archived, and the resulting tree is checked against the host's.
import { HammerError, isHammerError } from '../errors.js';
import {
  baseTarStream,
  basePackTar,
  writeBasePack,
  type BaseArchive,
  type TreeEntry,
  type Workbench,
} from '../git/index.js';
import { parseRunnerResult, runnerArgv } from '../runner/index.js';
import type { Sandbox } from '../sandbox/types.js';

/** Where the archive puts the list of its paths for the runner's init. */
export const BASE_PATHS = '.git/hammer/base-paths';

/** The sandbox repository's base, once made. */
export interface SandboxBase {
  commit: string;
  tree: string;
  /** The base tree equals the host's, so trees can be compared after every patch. */
  comparable: boolean;
}

export interface InitOptions {
  sandbox: Sandbox;
  workbench: Workbench;
  uid: number;
  gid: number;
  execTimeoutMs: number;
  signal?: AbortSignal;
  /**
   * The archive left nothing out, so the base's objects can go in as one pack and the index be read
   * from the tree (instead of hashing and storing every file again in the sandbox).
   */
  whole?: boolean;
}

/**
 * The archive of the workbench's head as it goes into the sandbox (with the path list).
 * `entries`: the head's complete listing, when made already; `aheadBytes`: how much of it may be
 * made before the sandbox takes it (see baseTarStream).
 */
export function headArchive(
  o: Pick<InitOptions, 'workbench' | 'uid' | 'gid' | 'signal'>,
  entries?: readonly TreeEntry[],
  aheadBytes?: number,
): BaseArchive {
  return baseTarStream(o.workbench, o.workbench.head(), {
    uid: o.uid,
    gid: o.gid,
    pathList: BASE_PATHS,
    ...(entries ? { entries } : {}),
    ...(aheadBytes ? { aheadBytes } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
}

/**
 * Copy the workbench's head into the sandbox (with the path list), returning whether anything was
 * left out. `entries`: the head's complete listing, when made already; `archive`: its archive,
 * when started already (see headArchive).
 */
export async function copyHead(
  o: InitOptions,
  entries?: readonly TreeEntry[],
  archive: BaseArchive = headArchive(o, entries),
): Promise<{ skipped: number }> {
  const sig = o.signal ? { signal: o.signal } : {};
  const [, stats] = await Promise.all([
    o.sandbox.copyIn({ kind: 'tar', stream: archive.stream, normalized: true }, sig),
    archive.done,
  ]);
  return { skipped: stats.skippedSubmodules + stats.skippedUnsafe };
}

/**
 * Commit the archived paths in the sandbox. If that fails or the tree differs from the host's (the
 * baseline's test code ran first: it may have changed tracked files, filled the workspace or
 * planted a repository), start the workspace again from the archive once and retry.
 */
export async function initSandboxRepo(o: InitOptions): Promise<SandboxBase> {
  const first = await (o.whole ? packedInit(o) : runInit(o)).catch((err: unknown) => {
    if (isHammerError(err, 'SANDBOX_BROKEN')) return null;
    throw err;
  });
  if (first && first.tree === o.workbench.tree()) return { ...first, comparable: true };
  const sig = o.signal ? { signal: o.signal } : {};
  const wipe = await o.sandbox.exec(
    ['sh', '-c', 'chmod -R u+rwX /workspace 2>/dev/null; find /workspace -mindepth 1 -delete'],
    { timeoutMs: o.execTimeoutMs, ...sig },
  );
  if (wipe.exitCode !== 0)
    throw new HammerError('SANDBOX_BROKEN', `could not reset the sandbox's workspace (exit ${wipe.exitCode})`);
  await copyHead(o);
  const second = await runInit(o);
  return { ...second, comparable: second.tree === o.workbench.tree() };
}

/**
 * Send the base tree's objects as a pack and let the runner read its index from the tree. Only a
 * sha1 repository (the sandbox's git makes sha1 repositories); a pack the host's git cannot make
 * falls back to hashing the files in the sandbox.
 */
async function packedInit(o: InitOptions): Promise<{ commit: string; tree: string }> {
  const sig = o.signal ? { signal: o.signal } : {};
  const tree = o.workbench.tree();
  if (o.workbench.userRepo.objectFormat !== 'sha1') return runInit(o);
  const pack = await writeBasePack(o.workbench, tree, sig).catch((err: unknown) => {
    if (o.signal?.aborted || !isHammerError(err, 'GIT_FAILED')) throw err;
    return null;
  });
  if (!pack) return runInit(o);
  try {
    await o.sandbox.copyIn(
      { kind: 'tar', stream: await basePackTar(pack, { uid: o.uid, gid: o.gid }), normalized: true },
      sig,
    );
  } catch (err) {
    // the baseline's tests may have made .git something the pack cannot go into: start over
    if (o.signal?.aborted) throw err;
    throw new HammerError('SANDBOX_BROKEN', `could not copy the base pack in: ${String(err)}`, { cause: err });
  } finally {
    await pack.dispose();
  }
  return runInit(o, [pack.hash, pack.tree]);
}

async function runInit(o: InitOptions, packed: [hash: string, tree: string] | [] = []) {
  const r = await o.sandbox.exec(runnerArgv('init', BASE_PATHS, ...packed), {
    timeoutMs: o.execTimeoutMs,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  if (r.timedOut) throw new HammerError('SANDBOX_BROKEN', `runner init timed out after ${o.execTimeoutMs} ms`);
  const result = parseRunnerResult(r.stdout.text, { exitCode: r.exitCode });
  if (!result.ok || !result.commit || !result.tree) {
    throw new HammerError(
      'SANDBOX_BROKEN',
      `runner init failed (exit ${result.exit}): ${r.stderr.text.trim().slice(-300)}`,
    );
  }
  return { commit: result.commit, tree: result.tree };
}
