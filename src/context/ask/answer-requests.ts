// Answer the model's requests from the tree it works on (read-only): files or line ranges, and
// fixed-string searches, bounded in count and size per answer.
import type { ContextSource } from '../source.js';
import type { ContextEntry } from '../types.js';
import type { AskRequest } from './parse-requests.js';

/** How much one answer to the model's requests may hold. */
export interface AskLimits {
  /** Requests answered (the rest are reported as not answered). */
  maxRequests: number;
  /** Characters of all answers together. */
  maxChars: number;
  /** Lines of one file shown for one request. */
  maxLines: number;
  /** Lines one search shows. */
  maxHits: number;
}

/** The default bounds of one answer. */
export const ASK_LIMITS: AskLimits = { maxRequests: 8, maxChars: 24_000, maxLines: 400, maxHits: 40 };

/** What became of one request. */
export type AskOutcome = 'shown' | 'cut' | 'missing' | 'refused' | 'no_hits' | 'over_limit';

/** One request answered: what it asked, what came of it, and the text shown. */
export interface AskAnswer {
  request: AskRequest;
  outcome: AskOutcome;
  /** The file's path as found in the tree (read requests). */
  path: string | null;
  /** Lines shown, 1-based inclusive (read requests that showed something). */
  start: number | null;
  end: number | null;
  totalLines: number | null;
  /** Search hits shown (search requests). */
  hits: number | null;
  /** What is shown (file lines, or `path:line: text` for searches); '' when nothing. */
  text: string;
  /** Why nothing or less was shown, in a few words. */
  note: string;
}

/** Answer each request from `tree` read through `source`, within `limits`. */
export async function answerRequests(
  requests: readonly AskRequest[],
  tree: readonly ContextEntry[],
  source: ContextSource,
  limits: AskLimits = ASK_LIMITS,
): Promise<AskAnswer[]> {
  const files = new Map(tree.filter((e) => e.kind === undefined || e.kind === 'file').map((e) => [e.path, e]));
  let left = limits.maxChars;
  const out: AskAnswer[] = [];
  for (const [i, request] of requests.entries()) {
    const none = { request, path: null, start: null, end: null, totalLines: null, hits: null, text: '' };
    if (i >= limits.maxRequests || left <= 0) {
      out.push({
        ...none,
        outcome: 'over_limit',
        note: `not answered: at most ${limits.maxRequests} requests and ${limits.maxChars} characters per answer`,
      });
      continue;
    }
    const answer =
      request.kind === 'read'
        ? await answerRead(request, files, source, limits, left)
        : request.kind === 'search'
          ? await answerSearch(request, source, limits, left)
          : { ...none, outcome: 'refused' as const, note: request.reason };
    left -= answer.text.length;
    out.push(answer);
  }
  return out;
}

async function answerRead(
  request: Extract<AskRequest, { kind: 'read' }>,
  files: ReadonlyMap<string, ContextEntry>,
  source: ContextSource,
  limits: AskLimits,
  left: number,
): Promise<AskAnswer> {
  const base = { request, path: null, start: null, end: null, totalLines: null, hits: null, text: '' };
  const path = repoPath(request.path);
  if (path === null) return { ...base, outcome: 'refused', note: 'not a path inside the repository' };
  const entry = files.get(path);
  if (entry === undefined)
    return {
      ...base,
      path,
      outcome: 'missing',
      note: 'no such file in the repository (symlinks and submodules are not read)',
    };
  const [read] = await source.read([entry]);
  if (read === undefined) return { ...base, path, outcome: 'missing', note: 'a binary file, or it could not be read' };
  const lines = read.text.replace(/\n$/, '').split('\n');
  const total = lines.length;
  const first = Math.min(Math.max(1, request.start ?? 1), total);
  let last = Math.min(total, Math.max(first, request.end ?? total), first + limits.maxLines - 1);
  let text = lineSlice(lines, first, last);
  while (text.length > left && last > first) {
    last = first + Math.floor((last - first) / 2);
    text = lineSlice(lines, first, last);
  }
  if (text.length > left) text = text.slice(0, left);
  const cut = last < Math.min(total, request.end ?? total) || read.truncated;
  return {
    ...base,
    path,
    outcome: cut ? 'cut' : 'shown',
    start: first,
    end: last,
    totalLines: total,
    text,
    note: cut
      ? `cut to lines ${first}-${last} (at most ${limits.maxLines} lines a request, ${limits.maxChars} characters an answer)`
      : '',
  };
}

async function answerSearch(
  request: Extract<AskRequest, { kind: 'search' }>,
  source: ContextSource,
  limits: AskLimits,
  left: number,
): Promise<AskAnswer> {
  const base = { request, path: null, start: null, end: null, totalLines: null, text: '' };
  if (request.query.trim() === '' || request.query.includes('\n') || source.search === undefined) {
    return { ...base, hits: 0, outcome: 'refused', note: 'not a one-line search' };
  }
  const hits = await source.search([request.query], { words: false, maxHits: limits.maxHits + 1 });
  if (hits.length === 0) return { ...base, hits: 0, outcome: 'no_hits', note: 'no line holds it' };
  const shown = hits.slice(0, limits.maxHits);
  let text = shown.map((h) => `${h.path}:${h.line}: ${h.text.slice(0, 300)}`).join('\n');
  if (text.length > left) text = text.slice(0, Math.max(0, text.lastIndexOf('\n', left)));
  const more = hits.length > shown.length;
  return {
    ...base,
    hits: shown.length,
    outcome: more ? 'cut' : 'shown',
    text,
    note: more ? `the first ${limits.maxHits} matching lines` : '',
  };
}

/** A repository-relative path from what the model wrote (`./a`, `/workspace/a`, `a/b`), or null when it climbs out. */
export function repoPath(raw: string, workdir = '/workspace'): string | null {
  let p = raw.trim();
  if (p.startsWith(`${workdir}/`)) p = p.slice(workdir.length + 1);
  p = p.replace(/^(\.\/)+/, '');
  if (
    p === '' ||
    p.startsWith('/') ||
    p.includes('\0') ||
    p.split('/').some((s) => s === '..' || s === '' || s === '.git')
  )
    return null;
  return p;
}

function lineSlice(lines: readonly string[], first: number, last: number): string {
  return lines.slice(first - 1, last).join('\n');
}
