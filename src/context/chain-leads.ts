// What the call chain from the failing test leads to, per file: the definitions on it (nearest the
// test first), what a file on it is worth and why it is shown. Follows the calls over the files read,
// reads the files a call could not be resolved without, and follows them again once.
import { languageForPath, type SourceAnalysis } from '../syntax/index.js';
import {
  followCalls,
  chainPath,
  MAX_CHAIN_DEPTH,
  type ChainFile,
  type ChainLink,
  type ChainRoot,
} from './call-chain.js';
import { goPackageFiles, resolveImport } from './imports/index.js';
import { isCommonName, WEIGHT } from './leads.js';
import type { ProjectFacts } from './manifests.js';
import { dirName, isTestPath } from './source-files.js';
import { conftestsAbove, type TreeIndex } from './tree-index.js';

/** The files read so far and a way to read more (the build's reader). */
export interface ChainReads {
  texts: ReadonlyMap<string, { text: string }>;
  analyses: ReadonlyMap<string, SourceAnalysis>;
  read(paths: readonly string[]): Promise<void>;
}

/** A file on the call chain: the definitions on it and what the file is worth. */
export interface FileChain {
  /** Qualified names of its definitions on the chain, nearest the test first, with their weight. */
  names: { name: string; weight: number }[];
  /** What its nearest function on the chain is worth (0: only classes or types are on it). */
  score: number;
  /** The least depth-first place of its links (orders files of the same worth). */
  order: number;
  depth: number;
  detail: string;
}

/** Files read at most to resolve the chain's calls. */
const MAX_CHAIN_READS = 16;

/** What a definition `depth` calls below the failing test is worth. */
export function chainWeight(depth: number): number {
  return WEIGHT.chain - 0.25 * Math.min(depth, MAX_CHAIN_DEPTH);
}

/** Follow the calls of the roots; returns the chain per file (files it read are in `reads` after). */
export async function chainLeads(
  roots: readonly ChainRoot[],
  reads: ChainReads,
  index: TreeIndex,
  facts: ProjectFacts,
  aliases: ReadonlyMap<string, string>,
): Promise<Map<string, FileChain>> {
  if (roots.length === 0) return new Map();
  const scopes = new Map<string, string[]>();
  const scope = (path: string): string[] => {
    let s = scopes.get(path);
    if (s !== undefined) return s;
    const language = languageForPath(path);
    const analysis = reads.analyses.get(path);
    const out: string[] = [];
    if (language !== null && analysis !== undefined) {
      for (const ref of analysis.imports)
        out.push(...resolveImport(ref, path, language, index, facts).map((r) => r.path));
      if (language === 'go') out.push(...goPackageFiles(index, dirName(path)).filter((p) => p !== path));
      if (language === 'python' && isTestPath(path)) out.push(...conftestsAbove(index, path));
    }
    scopes.set(path, (s = [...new Set(out)]));
    return s;
  };
  const files = (): Map<string, ChainFile> => {
    const out = new Map<string, ChainFile>();
    for (const [p, analysis] of reads.analyses) out.set(p, { analysis, text: reads.texts.get(p)?.text ?? '' });
    return out;
  };
  const input = { roots, scope, aliases, skip: isCommonName };
  let result = followCalls({ ...input, files: files() });
  if (result.unread.length > 0) {
    await reads.read(result.unread.slice(0, MAX_CHAIN_READS));
    scopes.clear();
    result = followCalls({ ...input, files: files() });
  }
  return byFile(result.links);
}

/** The links grouped by file. */
function byFile(links: readonly ChainLink[]): Map<string, FileChain> {
  const out = new Map<string, FileChain>();
  for (const link of links) {
    if (isTestPath(link.path)) continue;
    const weight = chainWeight(link.depth);
    const fn =
      link.definition.kind === 'function' || link.definition.kind === 'method' || link.definition.kind === 'macro';
    let f = out.get(link.path);
    // said by its first function on the chain (a class says less of where the call goes)
    if (f !== undefined && fn && f.score === 0)
      f.detail = `on the call chain from the failing test: ${chainPath(link)}`;
    if (f === undefined) {
      f = {
        names: [],
        score: 0,
        order: link.order,
        depth: link.depth,
        detail: `on the call chain from the failing test: ${chainPath(link)}`,
      };
      out.set(link.path, f);
    }
    f.names.push({ name: link.definition.qualifiedName, weight });
    if (fn && weight > f.score) f.score = weight;
    f.order = Math.min(f.order, link.order);
    f.depth = Math.min(f.depth, link.depth);
  }
  return out;
}
