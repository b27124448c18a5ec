// Host-side git: the user's repository (read-only plumbing), the workbench where the branch is
// built, the tar of the base that goes into the sandbox, and delivery of the one new branch.
export { HARDENING_CONFIG, HARDENING_ENV, gitEnv, hardeningArgs } from './git-hardening.js';
export { gitArgv, gitFailed, gitText, runGit, runGitResult, spawnGit } from './git-exec.js';
export type { GitOptions, GitResult } from './git-exec.js';
export { isObjectId, assertObjectId } from './object-id.js';
export { resolveUserRepo, userRepoGit } from './user-repo.js';
export type { UserRepo } from './user-repo.js';
export { Workbench } from './workbench.js';
export type { ApplyResult, Identity, WorkbenchOptions } from './workbench.js';
export { commitMessage, cutAtWord, SUBJECT_MAX, type CommitText } from './commit-message.js';
export { userIdentity } from './user-identity.js';
export type { EntryKind, TreeEntry } from './tree-entries.js';
export type { BlobText, FileContent, ReadFilesResult, SkipReason } from './read-files.js';
export { GREP_MAX_BYTES, GREP_TIMEOUT_MS, type GrepHit } from './grep-tree.js';
export { treeChanges, type ChangedEntry, type TreeChangeEntry } from './tree-changes.js';
export { baseTarStream } from './base-archive.js';
export { BASE_PACK_PATHS, basePackTar, writeBasePack } from './base-pack.js';
export type { BasePack } from './base-pack.js';
export { isSafePath } from './safe-path.js';
export type { ArchiveOptions, ArchiveStats, BaseArchive } from './base-archive.js';
export { deliverBranch } from './deliver-branch.js';
export { diffstat } from './diffstat.js';
export type { DiffstatEntry } from './diffstat.js';
export type { DeliverRequest } from './deliver-branch.js';
export { branchCandidates, branchName, branchCommit, branchExists, MAX_BRANCH_CANDIDATES } from './branch-name.js';
export { trackedUnder } from './tracked-under.js';
