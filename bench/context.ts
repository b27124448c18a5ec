// Context benchmark: what the first prompt shows, over a corpus of bugs in Python, JS/TS, Go and Rust
// (recall: the first prompt shows every line the fix changes), beside the selection used before
// src/context; the prompt's size; the build time on a 5,000-file repository; and the prefix that
// consecutive prompts share on runs of small changes.
import { createHash } from 'node:crypto';
import { resolveConfig } from '../src/config/resolve.js';
import {
  buildContext,
  changedRanges,
  FILE_OVERHEAD,
  memorySource,
  ParseCache,
  sharedPrefixLength,
  type ContextEntry,
  type ContextResult,
} from '../src/context/index.js';
import { buildPrompt, type BuiltPrompt } from '../src/loop/prompt.js';
import { cutTestOutput, parseTestOutput } from '../src/test-output/index.js';
import type { TestRecord } from '../src/state/run-state.js';
import { LANGUAGE_IDS, preloadGrammars } from '../src/syntax/index.js';
import { contextCorpus, lineOf, type ContextCase } from './context-corpus/index.js';
import { selectContextFiles } from './legacy-context.js';
import { buildPrompt as legacyPrompt, type PromptFile } from './legacy-prompt.js';
import { benchBuildTime } from './context-build-time.js';
import { heading, median, printFigure } from './lib.js';

/** The prompt limits of the config. */
export type PromptLimits = Parameters<typeof buildPrompt>[0]['limits'];

/** The context section of `make bench`: the corpus figures, then the build time on a large repository. */
export async function benchContext(): Promise<void> {
  const { config } = await resolveConfig({ env: {} });
  await preloadGrammars(LANGUAGE_IDS);
  const cases = contextCorpus();
  await benchCorpus(cases, config.prompt);
  await benchBuildTime(
    cases.find((k) => k.name.startsWith('py exception raised deep'))!,
    cases.find((k) => k.name.startsWith("py linter's functional test"))!,
    cases.find((k) => k.name.startsWith('go test under test/issues/819'))!,
    config.prompt,
  );
}

/** Recall, prompt size and shared prefix over the corpus, beside the old selection. */
export async function benchCorpus(cases: ContextCase[], limits: PromptLimits): Promise<void> {
  heading(
    `context: the first prompt of ${cases.length} cases, default budget (${limits.budget_chars} chars of files, ${limits.file_max_bytes} per file, map ${limits.map_chars})`,
  );
  let newHits = 0;
  let oldHits = 0;
  const newChars: number[] = [];
  const oldChars: number[] = [];
  const byLanguage = new Map<string, { n: number; hit: number; old: number }>();
  const byShape = new Map<string, { n: number; hit: number; lines: number; shown: number }>();
  let withinBudget = 0;
  const buildMs: number[] = [];
  process.stdout.write(
    '  (each case: its first prompt; the files shown, with their headings, of the budget; the context build, in memory)\n',
  );
  for (const c of cases) {
    const first = await firstPrompt(c, limits);
    withinBudget += first.withinBudget ? 1 : 0;
    buildMs.push(first.ms);
    const shape = byShape.get(c.shape ?? '') ?? { n: 0, hit: 0, lines: 0, shown: 0 };
    byShape.set(c.shape ?? '', {
      n: shape.n + 1,
      hit: shape.hit + (first.newOk ? 1 : 0),
      lines: shape.lines + c.fix.length,
      shown: shape.shown + first.linesShown,
    });
    newHits += first.newOk ? 1 : 0;
    oldHits += first.oldOk ? 1 : 0;
    newChars.push(first.newChars);
    oldChars.push(first.oldChars);
    const lang = byLanguage.get(c.language) ?? { n: 0, hit: 0, old: 0 };
    byLanguage.set(c.language, {
      n: lang.n + 1,
      hit: lang.hit + (first.newOk ? 1 : 0),
      old: lang.old + (first.oldOk ? 1 : 0),
    });
    process.stdout.write(
      `  ${first.newOk ? 'shown ' : 'MISSED'}  old ${first.oldOk ? 'shown ' : 'missed'}  ${String(first.newChars).padStart(6)} chars (old ${String(first.oldChars).padStart(6)})  files ${String(first.used).padStart(5)}/${limits.budget_chars}  ${first.ms.toFixed(0).padStart(4)} ms  ${c.name}${first.note}\n`,
    );
  }
  const pct = (k: number): string => `${((100 * k) / cases.length).toFixed(1)}%`;
  process.stdout.write(
    `recall (every line to change shown in the first prompt): ${newHits}/${cases.length} = ${pct(newHits)}` +
      `   old selection: ${oldHits}/${cases.length} = ${pct(oldHits)}   goal >= 95%: ${newHits / cases.length >= 0.95 ? 'met' : 'NOT met'}\n`,
  );
  for (const [lang, s] of byLanguage)
    process.stdout.write(`  ${lang.padEnd(11)} ${s.hit}/${s.n} (old ${s.old}/${s.n})\n`);
  process.stdout.write(
    `within budget (shown files <= ${limits.budget_chars} chars with their headings, map <= ${limits.map_chars}): ${withinBudget}/${cases.length}\n`,
  );
  process.stdout.write('per shape: cases with every line to change shown; lines of the fixes shown\n');
  for (const [shape, s] of byShape)
    process.stdout.write(`  ${shape.padEnd(38)} ${s.hit}/${s.n} cases   ${s.shown}/${s.lines} lines\n`);
  printFigure({ name: 'context build per case (in memory, parses not cached)', samples: buildMs });
  printFigure({
    name: 'first prompt size',
    samples: newChars,
    unit: 'ch',
    reference: { name: 'old selection', samples: oldChars },
  });

  heading('context: shared prefix between consecutive prompts (runs of 3 iterations, one-line changes)');
  const pairs = { first: [] as number[], later: [] as number[], oldFirst: [] as number[], oldLater: [] as number[] };
  for (const c of cases) {
    const s = await prefixShares(c, limits);
    pairs.first.push(s.new[0]!);
    pairs.later.push(...s.new.slice(1));
    pairs.oldFirst.push(s.old[0]!);
    pairs.oldLater.push(...s.old.slice(1));
  }
  const pc = (xs: number[]): string => `${(100 * median(xs)).toFixed(1)}%`;
  const all = [...pairs.first, ...pairs.later];
  process.stdout.write(
    [
      `share of the later prompt its predecessor starts with (median over ${cases.length} runs):`,
      `  all pairs:                       ${pc(all)}   old order ${pc([...pairs.oldFirst, ...pairs.oldLater])}   goal >= 80%: ${median(all) >= 0.8 ? 'met' : 'NOT met'}`,
      `  after the first patch (2 -> 3):  ${pc(pairs.later)}   old order ${pc(pairs.oldLater)}   goal >= 80%: ${median(pairs.later) >= 0.8 ? 'met' : 'NOT met'}`,
      `  first patch (1 -> 2):            ${pc(pairs.first)}   old order ${pc(pairs.oldFirst)}`,
      '',
    ].join('\n'),
  );
}

/** The first prompt of a case with the new context and with the old selection: is every line to change shown? */
async function firstPrompt(
  c: ContextCase,
  limits: PromptLimits,
): Promise<{
  newOk: boolean;
  oldOk: boolean;
  linesShown: number;
  withinBudget: boolean;
  newChars: number;
  oldChars: number;
  note: string;
  used: number;
  ms: number;
}> {
  const tree = treeOf(c.files);
  const fix = c.fix.map((f) => ({ path: f.path, line: lineOf(c.files, f.path, f.line), text: f.line }));
  const t0 = performance.now();
  const context = await contextFor(c, c.files, tree, limits, c.output, new Map(), new ParseCache());
  const ms = performance.now() - t0;
  const prompt = newPrompt(c, tree, context, limits, c.output, '', 1);
  const user = prompt.messages[1].content;
  const shown = fix.filter(
    (f) =>
      context.files.some((s) => s.path === f.path && s.ranges.some((r) => r.start <= f.line && f.line <= r.end)) &&
      user.includes(f.text),
  );
  const newOk = shown.length === fix.length;
  const old = oldPrompt(c, tree, limits, c.output, '', 1, c.files);
  const oldOk = fix.every((f) => {
    const shown = old.files.find((p) => p.path === f.path);
    return shown !== undefined && shown.content.split('\n').length > f.line && shown.content.includes(f.text);
  });
  const missed = fix.filter(
    (f) => !context.files.some((s) => s.path === f.path && s.ranges.some((r) => r.start <= f.line && f.line <= r.end)),
  );
  const note = missed.length
    ? `\n          missed ${missed.map((m) => `${m.path}:${m.line}`).join(', ')}; shown: ${context.files.map((f) => `${f.path}${f.whole ? '' : `[${f.ranges.map((r) => `${r.start}-${r.end}`).join(',')}]`}`).join(' ')}`
    : '';
  const used = context.files.reduce((n, f) => n + f.text.length + FILE_OVERHEAD, 0);
  const withinBudget = used <= limits.budget_chars && (context.map?.text.length ?? 0) <= limits.map_chars;
  return {
    newOk,
    oldOk,
    linesShown: shown.length,
    withinBudget,
    newChars: prompt.chars,
    oldChars: old.prompt.chars,
    note,
    used,
    ms,
  };
}

/** Shares of the later prompt that the earlier one starts with, for iterations 1-2 and 2-3 (new and old). */
async function prefixShares(c: ContextCase, limits: PromptLimits): Promise<{ new: number[]; old: number[] }> {
  const fix = c.fix[0]!;
  const base = c.files;
  const line = lineOf(base, fix.path, fix.line);
  const comment = c.language === 'python' ? '#' : '//';
  const attempt = (k: number): Record<string, string> => {
    const lines = base[fix.path]!.split('\n');
    lines[line - 1] = `${lines[line - 1]} ${comment} attempt ${k}`;
    return { ...base, [fix.path]: lines.join('\n') };
  };
  const cache = new ParseCache();
  const texts = { new: [] as string[], old: [] as string[] };
  for (let it = 1; it <= 3; it++) {
    const files = it === 1 ? base : attempt(it - 1);
    const diff = it === 1 ? '' : oneLineDiff(fix.path, base[fix.path]!, files[fix.path]!);
    const output = it === 1 ? c.output : c.output.replace(/\d+(\.\d+)?m?s\b/, `${it}.0${it}s`);
    const tree = treeOf(files);
    const context = await contextFor(c, files, tree, limits, output, changedRanges(diff), cache);
    const p = newPrompt(c, tree, context, limits, output, diff, it);
    texts.new.push(`${p.messages[0].content}\n${p.messages[1].content}`);
    const o = oldPrompt(c, tree, limits, output, diff, it, files).prompt;
    texts.old.push(`${o.messages[0].content}\n${o.messages[1].content}`);
  }
  const share = (xs: string[]): number[] =>
    xs.slice(1).map((later, k) => {
      const n = sharedPrefixLength(xs[k]!, later);
      return n / later.length;
    });
  return { new: share(texts.new), old: share(texts.old) };
}

async function contextFor(
  c: ContextCase,
  files: Record<string, string>,
  tree: ContextEntry[],
  limits: PromptLimits,
  output: string,
  changed: Map<string, { start: number; end: number }[]>,
  cache: ParseCache,
): Promise<ContextResult> {
  return buildContext(
    {
      tree,
      directive: c.directive,
      failureOutput: output,
      changed,
      budget: { chars: limits.budget_chars, fileMaxBytes: limits.file_max_bytes, mapChars: limits.map_chars },
    },
    memorySource(new Map(Object.entries(files))),
    cache,
  );
}

/** The prompt of a case's iteration with the new context. */
export function newPrompt(
  c: ContextCase,
  tree: ContextEntry[],
  context: ContextResult,
  limits: PromptLimits,
  output: string,
  diff: string,
  iteration: number,
): BuiltPrompt {
  return buildPrompt({
    directive: c.directive,
    iteration,
    maxIterations: 10,
    signal: iteration === 1 ? 'baseline: tests failing (exit 1)' : 'last patch applied, tests still failing (exit 1)',
    diffSoFar: diff,
    lastTest: testRecord(output, limits),
    lastRejection: null,
    tree: tree.map((e) => e.path),
    context,
    limits,
    maxDiffLines: 500,
  });
}

/** The old selection and prompt: files named by the directive, the test output excerpt, the changes; heads of files. */
function oldPrompt(
  c: ContextCase,
  tree: ContextEntry[],
  limits: PromptLimits,
  output: string,
  diff: string,
  iteration: number,
  files: Record<string, string>,
): { prompt: BuiltPrompt; files: PromptFile[] } {
  const record = testRecord(output, limits);
  const picks = selectContextFiles({
    directive: c.directive,
    testOutput: `${record.stdout_tail}\n${record.stderr_tail}`,
    changedFiles: [...changedRanges(diff).keys()],
    tree,
    budget: { chars: limits.budget_chars, fileMaxBytes: limits.file_max_bytes },
  });
  // what the old renderer kept: each file's head, within file_max_bytes and what was left of the budget
  let left = limits.budget_chars;
  const shown: PromptFile[] = [];
  for (const p of picks) {
    const room = Math.min(limits.file_max_bytes, left);
    if (room <= 0) break;
    const content = (files[p.path] ?? '').slice(0, Math.min(p.readBytes, room));
    left -= content.length;
    shown.push({ path: p.path, content, reason: p.reason, truncated: p.truncated });
  }
  const prompt = legacyPrompt({
    directive: c.directive,
    iteration,
    maxIterations: 10,
    signal: iteration === 1 ? 'baseline: tests failing (exit 1)' : 'last patch applied, tests still failing (exit 1)',
    diffSoFar: diff,
    lastTest: record,
    lastRejection: null,
    tree: tree.map((e) => e.path),
    files: shown,
    limits,
    maxDiffLines: 500,
  });
  return { prompt, files: shown };
}

/** The test record the loop makes of this output: cut once, keeping the failure blocks. */
export function testRecord(output: string, limits: PromptLimits): TestRecord {
  const report = parseTestOutput(output);
  return {
    command: 'the tests',
    exit_code: 1,
    duration_ms: 100,
    timed_out: false,
    stdout_tail: cutTestOutput(output, report, {
      headLines: limits.output_head_lines,
      tailLines: limits.output_tail_lines,
      failureLines: limits.output_failure_lines,
      maxFailures: limits.output_max_failures,
    }),
    stderr_tail: '',
    total_bytes: output.length,
    dropped_bytes: 0,
    artifact: null,
  };
}

function treeOf(files: Record<string, string>): ContextEntry[] {
  return Object.entries(files).map(([path, text]) => ({
    path,
    oid: createHash('sha1').update(text).digest('hex'),
    size: Buffer.byteLength(text),
    kind: 'file',
  }));
}

/** A diff of one changed line with three lines of context. */
function oneLineDiff(path: string, before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const at = a.findIndex((l, i) => l !== b[i]);
  const lo = Math.max(0, at - 3);
  const hi = Math.min(a.length, at + 4);
  const body = [
    ...a.slice(lo, at).map((l) => ` ${l}`),
    `-${a[at]}`,
    `+${b[at]}`,
    ...a.slice(at + 1, hi).map((l) => ` ${l}`),
  ];
  const n = hi - lo;
  return `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -${lo + 1},${n} +${lo + 1},${n} @@\n${body.join('\n')}\n`;
}
