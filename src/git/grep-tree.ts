// Searching a commit's tree for fixed strings (`git grep -F` over the commit, never a work tree).
import type { GitOptions } from './git-exec.js';
import { streamGit } from './git-stream.js';
import { assertObjectId } from './object-id.js';

/** A line holding one of the strings. */
export interface GrepHit {
  path: string;
  line: number;
  text: string;
}

/** The longest line text kept per hit. */
const MAX_LINE = 400;
/** Paths passed to one grep at most (more: the first ones). */
const MAX_PATHS = 4000;

/**
 * Lines of `commit`'s text files holding any of `strings` (fixed strings; whole words when
 * `words`), at most `maxHits` and at most 3 per file, in `paths` only when given (literal paths).
 * Best effort: a failing git gives fewer hits.
 */
export async function grepTree(
  commit: string,
  strings: readonly string[],
  opts: GitOptions & { words: boolean; maxHits: number; paths?: readonly string[] },
): Promise<GrepHit[]> {
  assertObjectId(commit);
  const wanted = strings.filter((s) => s !== '' && !s.includes('\n'));
  if (wanted.length === 0 || opts.maxHits <= 0) return [];
  const args = ['grep', '-z', '-n', '-I', '--no-color', '-F', '--max-count=3', ...(opts.words ? ['-w'] : [])];
  for (const s of wanted) args.push('-e', s);
  if (opts.paths?.length === 0) return [];
  args.push(commit, '--', ...(opts.paths ?? []).slice(0, MAX_PATHS));
  const git = streamGit(args, opts);
  const hits: GrepHit[] = [];
  try {
    while (hits.length < opts.maxHits) {
      const name = await git.reader.readUntil(0);
      if (name === null) break;
      const line = await git.reader.readUntil(0);
      const text = await git.reader.readUntil(10);
      if (line === null || text === null) break;
      const path = name.toString('utf8').slice(commit.length + 1);
      hits.push({ path, line: Number(line.toString('latin1')), text: text.toString('utf8').slice(0, MAX_LINE) });
    }
  } catch {
    // a record cut short (git killed or failed): the hits so far stand
  } finally {
    await git.stop();
  }
  return hits;
}
