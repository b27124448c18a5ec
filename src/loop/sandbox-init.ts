// Making the sandbox's copy a git repository. It can run after the baseline test and while the
// model generates, off the path to the first model request: init commits exactly the paths the
// host archived, and the resulting tree is checked against the host's.
import { HammerError, isHammerError } from '../errors.js';
import { baseTarStream, type Workbench } from '../git/index.js';
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
}

/** Copy the workbench's head into the sandbox (with the path list), returning whether anything was left out. */
export async function copyHead(o: InitOptions): Promise<{ skipped: number }> {
  const sig = o.signal ? { signal: o.signal } : {};
  const archive = baseTarStream(o.workbench, o.workbench.head(), {
    uid: o.uid,
    gid: o.gid,
    pathList: BASE_PATHS,
    ...sig,
  });
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
  const first = await runInit(o).catch((err: unknown) => {
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

async function runInit(o: InitOptions): Promise<{ commit: string; tree: string }> {
  const r = await o.sandbox.exec(runnerArgv('init', BASE_PATHS), {
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
