// Searching a commit's tree for fixed strings (`git grep -F` over the commit, never a work tree).
// Bounded whatever the tree holds: each line is read once and only its first MAX_LINE bytes are
// kept, at most `maxBytes` of git's output are read, and git is stopped at a deadline, so one
// line of 80 MB (or a tree of them) costs a bounded, linear amount of work.
import type { GitOptions } from './git-exec.js';
import { streamGit } from './git-stream.js';
import { assertObjectId } from './object-id.js';

/** A line holding one of the strings. */
export interface GrepHit {
  path: string;
  line: number;
  text: string;
}

/** The longest line text kept per hit (in bytes read; the text is cut to this many characters). */
const MAX_LINE = 400;
/** Paths passed to one grep at most (more: the first ones). */
const MAX_PATHS = 4000;
/** The most bytes of git's output one search reads (the rest of the search is not done). */
export const GREP_MAX_BYTES = 16 * 1024 * 1024;
/** How long one search may take before git is stopped (its hits so far stand). */
export const GREP_TIMEOUT_MS = 5_000;
/** The longest path name read. */
const MAX_NAME = 4096;

/**
 * Lines of `commit`'s text files holding any of `strings` (fixed strings; whole words when
 * `words`), at most `maxHits` and at most 3 per file, in `paths` only when given (literal paths).
 * Best effort: a failing git, a search over `maxBytes` of output or past `timeoutMs` gives fewer hits.
 */
export async function grepTree(
  commit: string,
  strings: readonly string[],
  opts: GitOptions & {
    words: boolean;
    maxHits: number;
    paths?: readonly string[];
    maxBytes?: number;
    timeoutMs?: number;
  },
): Promise<GrepHit[]> {
  assertObjectId(commit);
  const wanted = strings.filter((s) => s !== '' && !s.includes('\n'));
  if (wanted.length === 0 || opts.maxHits <= 0) return [];
  const args = ['grep', '-z', '-n', '-I', '--no-color', '-F', '--max-count=3', ...(opts.words ? ['-w'] : [])];
  for (const s of wanted) args.push('-e', s);
  if (opts.paths?.length === 0) return [];
  const timeoutMs = opts.timeoutMs ?? GREP_TIMEOUT_MS;
  if (timeoutMs <= 0) return [];
  args.push(commit, '--', ...(opts.paths ?? []).slice(0, MAX_PATHS));
  const git = streamGit(args, opts);
  const hits: GrepHit[] = [];
  let left = opts.maxBytes ?? GREP_MAX_BYTES;
  const timer = setTimeout(() => void git.stop(), timeoutMs);
  try {
    while (hits.length < opts.maxHits && left > 0) {
      const name = await git.reader.readRecord(0, MAX_NAME, left);
      if (name === null) break;
      const line = await git.reader.readRecord(0, 32, left);
      const text = await git.reader.readRecord(10, MAX_LINE * 4, left);
      if (line === null || text === null) break;
      left -= name.length + line.length + text.length + 3;
      const path = name.bytes.toString('utf8').slice(commit.length + 1);
      hits.push({
        path,
        line: Number(line.bytes.toString('latin1')),
        text: text.bytes.toString('utf8').slice(0, MAX_LINE),
      });
    }
  } catch {
    // a record cut short (git killed, failed, or stopped at the deadline): the hits so far stand
  } finally {
    clearTimeout(timer);
    await git.stop();
  }
  return hits;
}
