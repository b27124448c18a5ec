// The run's `prepare` and `baseline` phases: the host workbench, the image, the hardened sandbox,
// the base tree copied in as one tar stream, and the first test run.
import type { ParseCache } from '../context/index.js';
import { HammerError } from '../errors.js';
import { Workbench, type BaseArchive, type UserRepo } from '../git/index.js';
import { preflightTree, sizeOfEntries, treeRefusal } from '../git/preflight.js';
import { renderTestLog } from '../test-output/test-log.js';
import type { Sandbox, SandboxSpec } from '../sandbox/types.js';
import { artifactNames } from '../state/artifact-names.js';
import type { TestRecord } from '../state/run-state.js';
import type { RunRecorder } from './phase-runner.js';
import type { ResolvedImage, RunDeps, RunRequest } from './run-types.js';
import { copyHead, headArchive, initSandboxRepo } from './sandbox-init.js';
import { SandboxRepo } from './sandbox-repo.js';
import { sandboxSpec } from './sandbox-spec.js';
import { toTestRecord } from './test-record.js';
import { testTimeoutMs } from './test-timeout.js';

/**
 * How much of the base's archive is made while the engine creates and starts the sandbox, before
 * the copy in takes it (twice this at most is held: see baseTarStream). A 50 MB tree is made whole.
 */
const ARCHIVE_AHEAD_BYTES = 32 * 1024 * 1024;

/** How many tree entries a prompt's file selection looks at (the prompt itself shows fewer). */
export const PROMPT_TREE_ENTRIES = 100_000;

/** What a prepared run works with. */
export interface Prepared {
  workbench: Workbench;
  sandbox: Sandbox;
  repo: SandboxRepo;
  /** The sandbox's base tree equals the host's (so trees can be compared after every patch); known once ready. */
  treesComparable: boolean;
  /** The sandbox commit matching the workbench's head (the sandbox's own hashes differ from the host's); '' until ready. */
  sandboxHead: string;
  /** The sandbox commit of the run's base; '' until ready, and when patches were replayed in (resume: the base is not there). */
  sandboxBase: string;
  /** Make the sandbox's repository now, in the background, if that was deferred past the baseline. */
  startInit(): void;
  /** Resolves when the sandbox's repository exists (await before the first sandbox git operation). */
  ready(): Promise<void>;
  /** The run's parses, by blob id: a file unchanged between prompts is parsed once. */
  parseCache: ParseCache;
  /** The model server refused native tool calls (agent mode then teaches calls in text for the rest of the run). */
  toolsRefused?: boolean;
}

/**
 * Create the workbench and the sandbox side by side, copy the base in, and make it a repository.
 * Whatever was created is handed to `track` at once, so the caller can clean it up on failure.
 */
export async function prepare(
  runId: string,
  req: Pick<RunRequest, 'config' | 'workbench' | 'author'>,
  deps: Pick<RunDeps, 'engine' | 'signal'>,
  userRepo: UserRepo,
  image: ResolvedImage,
  track: (p: Partial<Prepared>) => void,
  /** Patches accepted before (resume): replayed on the host, and their result is what goes in. */
  applied: { patch: string; iteration: number; summary: string; message: string; tree: string; date: Date }[] = [],
): Promise<Prepared> {
  const { config } = req;
  const signal = deps.signal;
  const spec: SandboxSpec = sandboxSpec(config, runId, image.ref);
  // the context code (and the syntax layer under it) loads here, while the sandbox is made
  const contextCode = import('../context/index.js');
  const parseCacheMade = contextCode.then((lib) => new lib.ParseCache());
  parseCacheMade.catch(() => undefined); // awaited below
  const [uid, gid] = config.sandbox.user.split(':').map(Number) as [number, number];
  /** The base's archive, made while the engine makes the sandbox (see ARCHIVE_AHEAD_BYTES). */
  let early: BaseArchive | undefined;
  // both settle before either failure is thrown: a sandbox still being created when the workbench
  // side fails (the preflight refusing the tree) is tracked, so the caller's cleanup removes it
  const [wbSide, sandboxSide] = await Promise.allSettled([
    (req.workbench?.head() === userRepo.baseCommit
      ? Promise.resolve(req.workbench)
      : Workbench.create(userRepo, userRepo.baseCommit, {
          identity: { name: config.git.author_name, email: config.git.author_email },
          ...(signal ? { signal } : {}),
        })
    )
      .then((w) => (track({ workbench: w }), w))
      // a tree that cannot fit is refused before anything goes in; its one listing also serves
      // the archive and the first prompt
      .then(async (w) => {
        const limits = { maxFiles: config.sandbox.max_repo_files, workspaceBytes: config.sandbox.workspace_size };
        const listed = await w.listTree(w.head(), { maxEntries: limits.maxFiles + 1, ...(signal ? { signal } : {}) });
        // over the file limit: counted to the end, so the refusal gives the real number
        if (listed.truncated) await preflightTree(w.head(), w.gitOptions(signal ? { signal } : {}), limits);
        const refusal = treeRefusal(sizeOfEntries(listed.entries), limits);
        if (refusal) throw refusal;
        // the grammars the first prompt's files need load while the engine makes the sandbox: node
        // only waits on the engine there, and later they would slow the copy in, which node feeds
        void Promise.all([contextCode, parseCacheMade])
          .then(([lib, cache]) =>
            lib.warmContext(
              cache,
              listed.entries.slice(0, PROMPT_TREE_ENTRIES).map((e) => e.path),
            ),
          )
          .catch(() => undefined);
        // the archive of the base is made now too, as far as it runs ahead, so the copy in only
        // has the engine's extraction left (a resumed run's head moves first: made later)
        if (applied.length === 0)
          early = headArchive(
            { workbench: w, uid, gid, ...(signal ? { signal } : {}) },
            listed.truncated ? undefined : listed.entries,
            ARCHIVE_AHEAD_BYTES,
          );
        return w;
      }),
    deps.engine.create(spec, signal ? { signal } : {}).then((s) => (track({ sandbox: s }), s)),
  ]);
  if (wbSide.status === 'rejected' || sandboxSide.status === 'rejected') early?.stream.destroy();
  if (wbSide.status === 'rejected') throw wbSide.reason;
  if (sandboxSide.status === 'rejected') throw sandboxSide.reason;
  const parseCache = await parseCacheMade.catch((err: unknown) => {
    early?.stream.destroy();
    throw err;
  });
  const [workbench, sandbox] = [wbSide.value, sandboxSide.value];
  for (const a of applied) {
    const r = await workbench.applyPatch(a.patch, {
      iteration: a.iteration,
      summary: a.summary,
      message: a.message,
      ...(req.author ? { author: req.author } : {}),
      date: a.date,
      ...(signal ? { signal } : {}),
    });
    if (!r.ok || r.tree !== a.tree) {
      throw new HammerError(
        'STATE_INVALID',
        `iteration ${a.iteration}'s recorded patch no longer reproduces its tree ${a.tree.slice(0, 12)}${r.ok ? '' : `: ${r.message}`}`,
        {
          hint: 'the run cannot be resumed; start a new run',
        },
      );
    }
  }
  const initOptions = {
    sandbox,
    workbench,
    uid,
    gid,
    execTimeoutMs: config.sandbox.exec_timeout * 1000,
    ...(signal ? { signal } : {}),
  };
  // the resident runner starts while the base is copied in (the baseline's command waits for it)
  sandbox.warm?.();
  // the listing is the one the preflight made (a replayed patch moved the head: listed again)
  const listing = await workbench
    .listTree(workbench.head(), { maxEntries: config.sandbox.max_repo_files + 1, ...(signal ? { signal } : {}) })
    .catch((err: unknown) => {
      early?.stream.destroy();
      throw err;
    });
  const { skipped } = await copyHead(initOptions, listing.truncated ? undefined : listing.entries, early);
  const repo = new SandboxRepo(sandbox, {
    execTimeoutMs: config.sandbox.exec_timeout * 1000,
    maxOutputBytes: config.sandbox.output_cap,
  });
  const prep: Prepared = {
    workbench,
    sandbox,
    repo,
    treesComparable: false,
    sandboxHead: '',
    sandboxBase: '',
    startInit: () => void begin(),
    ready: () => begin(),
    parseCache,
  };
  let init: Promise<void> | undefined;
  const begin = (): Promise<void> => {
    if (!init) {
      init = initSandboxRepo({ ...initOptions, whole: skipped === 0 }).then((base) => {
        prep.sandboxHead = base.commit;
        if (applied.length === 0) prep.sandboxBase = base.commit;
        prep.treesComparable = base.comparable;
      });
      init.catch(() => undefined); // whoever awaits ready() sees the failure
    }
    return init;
  };
  // A tree with left-out entries (submodules, unsafe names) never matches the host's, so test
  // leftovers could not be told apart: make the repository before any test runs.
  if (skipped > 0) await prep.ready();
  return prep;
}

/** Run the tests once before the first generation, so the model sees what fails. */
export async function runTests(
  rec: RunRecorder,
  deps: RunDeps,
  repo: SandboxRepo,
  req: RunRequest,
  iteration: number | null,
  /** The log's artifact name (default: the baseline's, or the iteration's). */
  artifact?: string,
  /** The command (default: the run's test command). */
  command: string = req.testCommand,
): Promise<TestRecord> {
  const { config } = req;
  const run_id = rec.state.run_id;
  // the runner kills whatever the tests leave running, and waits until it is gone, before it returns
  // a baseline (this project's or another's) gets the generous first limit; later runs follow its time
  const result = await repo.test(
    command,
    testTimeoutMs(config.tools, iteration === null ? null : rec.state.baseline),
    (stream, chunk) => deps.emit({ type: 'test_output', run_id, iteration, stream, chunk: chunk.toString('utf8') }),
    deps.signal,
  );
  const name = artifact ?? (iteration === null ? artifactNames.baselineTestLog() : artifactNames.testLog(iteration));
  await deps.store.writeArtifact(run_id, name, renderTestLog(command, result));
  return toTestRecord(result, {
    command,
    artifact: name,
    headLines: config.prompt.output_head_lines,
    tailLines: config.prompt.output_tail_lines,
    failureLines: config.prompt.output_failure_lines,
    maxFailures: config.prompt.output_max_failures,
  });
}

/** The sandbox's commit must be the one the host's tree makes there (see sandboxCommitId): else SANDBOX_BROKEN. */
export function assertSameCommit(expected: string, sandbox: string, iteration: number): void {
  if (expected !== sandbox) {
    throw new HammerError(
      'SANDBOX_BROKEN',
      `iteration ${iteration}: the sandbox's commit ${sandbox} is not the one the tree the host built makes there (${expected}): their trees differ`,
      {
        hint: 'the sandbox image may be changing files on apply (git attributes or a wrapper); try another image',
      },
    );
  }
}

/** Fail closed when the host and the sandbox disagree about the tree a patch produced. */
export function assertSameTree(host: string, sandbox: string, iteration: number): void {
  if (host !== sandbox) {
    throw new HammerError(
      'SANDBOX_BROKEN',
      `iteration ${iteration}: the sandbox's tree ${sandbox} differs from the tree the host built (${host})`,
      {
        hint: 'the sandbox image may be changing files on apply (git attributes or a wrapper); try another image',
      },
    );
  }
}
