// The commit the runner's `step` makes from a tree, computed on the host: the runner commits with a
// fixed identity and date (runner/hammer-runner.sh) and `--cleanup=whitespace`, so its commit's id
// follows from the tree, the parent and the message alone. The runner reports the commit it made
// without asking git for its tree; a commit equal to this one proves the sandbox's tree is the
// host's. Pure.
import { createHash } from 'node:crypto';

/** Who the runner's commits are by, and when (its GIT_AUTHOR_* and GIT_COMMITTER_* settings). */
export const RUNNER_COMMIT_IDENTITY = 'hammer-box <hammer-box@localhost> 946684800 +0000';

/**
 * A message as `git commit --cleanup=whitespace` stores it: trailing whitespace cut from every
 * line, blank lines at the start and end dropped, runs of blank lines made one, a final newline.
 */
export function cleanupWhitespace(message: string): string {
  const out: string[] = [];
  let blank = false;
  for (const raw of message.split('\n')) {
    // git's own isspace: space, \t, \n and \r only
    const line = raw.replace(/[ \t\n\r]+$/, '');
    if (line === '') {
      blank = out.length > 0;
      continue;
    }
    if (blank) out.push('');
    blank = false;
    out.push(line);
  }
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

/** The id of the commit the runner's `step` makes of `tree` on `parent` with `message` (the hash length follows the tree's). */
export function sandboxCommitId(tree: string, parent: string, message: string): string {
  const body = Buffer.from(
    `tree ${tree}\nparent ${parent}\nauthor ${RUNNER_COMMIT_IDENTITY}\ncommitter ${RUNNER_COMMIT_IDENTITY}\n\n${cleanupWhitespace(message)}`,
    'utf8',
  );
  const hash = createHash(tree.length === 64 ? 'sha256' : 'sha1');
  hash.update(`commit ${body.length}\0`);
  hash.update(body);
  return hash.digest('hex');
}
