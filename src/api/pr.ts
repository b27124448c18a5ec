// The programmatic API behind `hammer-box pr <run_id>` (and `run --pr`): check that gh or glab can
// open the pull request (the forge known, the tool installed and logged in), then push the run's
// branch, and only it, to a remote, and open a pull request with the run's title and PR_SUMMARY.md;
// one already open for the branch is reported (the push updated it). When the forge cannot be used,
// nothing is pushed and the exact commands that push and open it are handed back.
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { HammerError } from '../errors.js';
import {
  authStatusCall,
  boundedBody,
  existingCall,
  existingUrl,
  FORGES,
  forgeOfHost,
  forgeRepoHost,
  manualCommand,
  MAX_BODY_BYTES,
  openCall,
  parseForgeRepo,
  projectOfRemote,
  pullRequestUrl,
  type ForgeKind,
  type ForgeProject,
  type PullRequestSpec,
} from '../forge/forge.js';
import { findTool, runTool } from '../forge/forge-tool.js';
import { branchCommit, branchExists } from '../git/branch-name.js';
import { runGitResult } from '../git/git-exec.js';
import { pushBranch, remotePushUrl, type PushResult } from '../git/push-branch.js';
import { redact } from '../git/remote-url.js';
import { resolveUserRepo, userRepoGit, type UserRepo } from '../git/user-repo.js';
import { prTitle } from '../report/pr-title.js';
import { shellWord } from '../text/shell-word.js';
import type { RunState } from '../state/run-state.js';
import { runVerdict, verdictRule } from '../verdict/index.js';
import { recordPush } from './push-record.js';
import { prBody, repoRunStore, showRun } from './runs.js';

/** What `pr` takes. */
export interface PullRequestOptions {
  /** The repository the run belongs to. */
  repo: string;
  runId: string;
  /** The remote to push to (default origin). */
  remote?: string;
  /** GitHub or GitLab, when the remote's host does not say. */
  forge?: ForgeKind;
  /** The project on the forge, "[host/]owner/repository", when the remote's URL does not name it. */
  forgeRepo?: string;
  /** The branch to merge into (default: the run's base branch, else the project's default). */
  base?: string;
  /** A file whose text is the body instead of PR_SUMMARY.md. */
  bodyFile?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** What `pr` did: the push, and the pull request opened (or found open) or the commands that do it. */
export interface PullRequestOutcome {
  run_id: string;
  branch: string;
  remote: string;
  /** The remote's URL, without credentials. */
  pushed_to: string;
  /** What the push did; null when nothing was pushed (the pull request could not be opened from here). */
  push: PushResult | null;
  forge: ForgeKind | null;
  /** "host/owner/repository". */
  project: string | null;
  title: string;
  draft: boolean;
  /** The pull request: opened now, or already open for the branch (`existing`: the push updated it). */
  pull_request: { url: string; existing: boolean } | null;
  /** When none was opened: why, what to do, and the commands that push the branch and open it. */
  reason: string | null;
  hint: string | null;
  commands: string[];
}

/** Push the run's branch and open its pull request (see the file comment). */
export async function openPullRequest(options: PullRequestOptions): Promise<PullRequestOutcome> {
  const env = options.env ?? process.env;
  const remoteName = options.remote ?? 'origin';
  const sig = options.signal ? { signal: options.signal } : {};
  const { state, summaryPath } = await showRun({ repo: options.repo, runId: options.runId, env });
  const branch = state.branch?.name;
  if (!branch)
    throw new HammerError('USAGE', `run ${state.run_id} made no branch, so there is nothing to push`, {
      hint: 'a run makes its branch when a patch was applied (or with --keep-empty-branch)',
    });
  const userRepo = await resolveUserRepo(options.repo, state.repo.base_commit, sig);
  if ((await branchCommit(userRepo, branch, options.signal)) === null)
    throw new HammerError(
      'REPO_INVALID',
      `the branch ${branch} of run ${state.run_id} is no longer in ${userRepo.root}`,
      {
        hint: "it was deleted (by 'hammer-box runs prune' or by hand); there is nothing of the run's to push",
      },
    );
  const title = prTitle(state);
  const body = options.bodyFile
    ? await readBodyFile(options.bodyFile)
    : boundedBody(
        await prBody({ repo: options.repo, runId: state.run_id, env }),
        summaryPath ?? `PR_SUMMARY.md of run ${state.run_id}`,
      );

  const git = userRepoGit(userRepo, options.signal);
  const remote = await remotePushUrl(git, remoteName);
  const done = {
    run_id: state.run_id,
    branch,
    remote: remoteName,
    pushed_to: remote.display,
    push: null,
    title,
    // only a stable run's pull request opens ready for review (see OUTCOME_RULES)
    draft: !verdictRule(runVerdict(state)).ready,
  };
  const ref = shellWord(`refs/heads/${branch}`);
  const pushCommand = `git -C ${shellWord(userRepo.root)} push ${shellWord(remoteName)} ${ref}:${ref}`;

  // everything the pull request needs is checked before anything leaves the machine
  const named = options.forgeRepo ? forgeRepoHost(options.forgeRepo) : undefined;
  const forge = options.forge ?? forgeOfHost(named ?? remote.host);
  if (!forge)
    return manual(done, null, null, {
      reason: `${remote.host ?? remote.display} is not a host hammer-box knows as GitHub or GitLab, so nothing was pushed and no pull request opened`,
      hint: 'pass --forge github or --forge gitlab (and --forge-repo [host/]owner/repository when the remote does not name the project), or push the branch yourself with the command below',
      commands: [pushCommand],
    });
  const project = options.forgeRepo
    ? parseForgeRepo(options.forgeRepo, forge, remote.host)
    : projectOfRemote(remote.host, remote.path);
  if (!project)
    return manual(done, forge, null, {
      reason: `the remote ${remote.display} names no project on ${forge === 'github' ? 'GitHub' : 'GitLab'}, so nothing was pushed and no pull request opened`,
      hint: 'pass --forge-repo [host/]owner/repository naming it',
      commands: [pushCommand],
    });
  const spec: PullRequestSpec = {
    project,
    head: branch,
    base: options.base ?? (await baseBranch(state, userRepo, remoteName, options.signal)),
    title,
    body,
    draft: done.draft,
  };
  const bodyCommand = options.bodyFile
    ? `cat ${shellWord(resolve(options.bodyFile))}`
    : `hammer-box runs show ${state.run_id} --repo ${shellWord(userRepo.root)} --pr-body`;
  const command = manualCommand(forge, spec, bodyCommand);
  const tool = FORGES[forge];
  const path = await findTool(tool, env);
  if (!path)
    return manual(done, forge, project, {
      reason: `${tool} is not installed, so nothing was pushed and no pull request opened`,
      hint: `install ${tool} (${forge === 'github' ? 'https://cli.github.com' : 'https://gitlab.com/gitlab-org/cli'}) and log in, then run hammer-box pr again, or run the commands below`,
      commands: [pushCommand, command],
    });
  const auth = await runTool(path, authStatusCall(forge, project.host), env, options.signal);
  if (auth.exitCode !== 0)
    return manual(done, forge, project, {
      reason: `${tool} is not logged in to ${project.host}, so nothing was pushed and no pull request opened`,
      hint: `${tool} auth login --hostname ${project.host} (or set ${forge === 'github' ? 'GH_TOKEN' : 'GITLAB_TOKEN'}), then run hammer-box pr again, or run the commands below`,
      commands: [pushCommand, command],
    });

  const push = await pushBranch(git, remote, branch, { hostEnv: env, ...sig });
  await recordPush(await repoRunStore({ repo: options.repo, env }), state.run_id, {
    branch,
    remote: remoteName,
    url: remote.display,
    commit: state.branch!.commit,
    at: new Date().toISOString(),
  }).catch(() => undefined);
  const pushed = { ...done, push, forge, project: `${project.host}/${project.path}`, reason: null, hint: null };

  // a pull request already open for the branch: the push updated it
  const listed = await runTool(path, existingCall(forge, project, branch), env, options.signal);
  const open = listed.exitCode === 0 ? existingUrl(listed.stdout) : null;
  if (open !== null) return { ...pushed, pull_request: { url: open, existing: true }, commands: [] };

  const opened = await runTool(path, openCall(forge, spec), env, options.signal);
  const url = pullRequestUrl(opened.stdout);
  if (opened.exitCode !== 0 || url === null) {
    const said = redact(`${opened.stderr}\n${opened.stdout}`).trim().split('\n').slice(-8).join('\n');
    // gh names the one open already ("a pull request for branch ... already exists:\n<url>")
    const already = /already exists/i.test(said) ? pullRequestUrl(said) : null;
    if (already !== null) return { ...pushed, pull_request: { url: already, existing: true }, commands: [] };
    throw new HammerError(
      'PR_FAILED',
      `${tool} could not open the ${forge === 'github' ? 'pull' : 'merge'} request for ${branch} (exit ${opened.exitCode}):\n${said}`,
      {
        hint: /already exists/i.test(said)
          ? 'one is open for this branch already: the push updated it'
          : `fix what ${tool} says, then run hammer-box pr ${state.run_id} again (the push is done), or: ${command}`,
      },
    );
  }
  return { ...pushed, pull_request: { url, existing: false }, commands: [] };
}

/** The outcome when no pull request can be opened from here: nothing pushed, and the commands that do both. */
function manual(
  done: Omit<PullRequestOutcome, 'forge' | 'project' | 'pull_request' | 'reason' | 'hint' | 'commands'>,
  forge: ForgeKind | null,
  project: ForgeProject | null,
  why: { reason: string; hint: string; commands?: string[] },
): PullRequestOutcome {
  return {
    ...done,
    forge,
    project: project ? `${project.host}/${project.path}` : null,
    pull_request: null,
    reason: why.reason,
    hint: why.hint,
    commands: why.commands ?? [],
  };
}

/**
 * The branch the pull request merges into: the run's base when it is a branch (local, or of the
 * remote: "origin/main" is "main"); null for a detached base or a tag (the project's default branch).
 */
async function baseBranch(
  state: RunState,
  userRepo: UserRepo,
  remote: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const ref = state.repo.base_ref;
  if (ref === state.repo.base_commit) return null;
  const name = ref.replace(/^refs\/heads\//, '').replace(/^refs\/remotes\//, '');
  if (!ref.startsWith('refs/remotes/') && (await branchExists(userRepo, name, signal))) return name;
  const tracking = name.startsWith(`${remote}/`) ? name.slice(remote.length + 1) : null;
  if (tracking === null) return null;
  const r = await runGitResult(
    ['show-ref', '--verify', '--quiet', `refs/remotes/${remote}/${tracking}`],
    userRepoGit(userRepo, signal),
  );
  return r.exitCode === 0 ? tracking : null;
}

/** --pr-body: a regular file of at most MAX_BODY_BYTES (USAGE otherwise). */
async function readBodyFile(path: string): Promise<string> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new HammerError(
      'USAGE',
      `cannot read --pr-body ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      {
        hint: 'pass --pr-body <file> naming a readable text file',
      },
    );
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new HammerError('USAGE', `--pr-body ${path} is not a regular file`);
    if (st.size > MAX_BODY_BYTES)
      throw new HammerError(
        'USAGE',
        `--pr-body ${path} is ${st.size} bytes; a pull request body takes at most ${MAX_BODY_BYTES}`,
        {
          hint: 'shorten it, or leave --pr-body out to use PR_SUMMARY.md (cut to fit)',
        },
      );
    const buf = Buffer.alloc(st.size);
    const { bytesRead } = await handle.read(buf, 0, st.size, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
