// Build what the prompt shows: seed files (failure, directive, changes, asked), the names the failure
// leads to (what the failing test calls and uses, its traceback's frames, the messages it asserts or
// prints, the data it is driven by), followed through imports to their definitions, then the budgeted
// plan. Each file is read once and parsed once per blob; only what leads somewhere is read.
import { languageForPath } from '../syntax/index.js';
import { directiveRefs } from './directive-refs.js';
import { failureFiles } from './failure-files.js';
import { readFailureReport } from './failure-report.js';
import { findDefinitionsByName, findMessageFiles, findTestsByName } from './find-by-name.js';
import { followImports, MAX_HOPS, type ContextNode } from './follow-imports.js';
import type { ChainRoot } from './call-chain.js';
import { chainLeads } from './chain-leads.js';
import { changelogCandidate, changelogPath } from './changelog.js';
import { addCallees, addLead, definers, deriveMacros, failingNames, WEIGHT, type Lead } from './leads.js';
import { variantLeads } from './file-score.js';
import { isFactManifest, manifestsFor, readFacts } from './manifests.js';
import { assertedStrings, printedStrings, uniqueTexts } from './message-strings.js';
import { dataWords, filesNamedAfter, namedLike, titleWords } from './name-tokens.js';
import type { ContextInput } from './context-input.js';
import type { ParseCache } from './parse-cache.js';
import { toCandidate, type CandidateLeads } from './candidate.js';
import { FILE_OVERHEAD, planContext, rankCandidates, type Candidate } from './plan.js';
import { linesHolding, linesOfTests } from './lines-of.js';
import { ContextReader } from './reader.js';
import { filesFromPatterns, runNames, runnerPatterns } from './runner-paths.js';
import { failingRegions } from './failing-regions.js';
import { baseName, dirName, isSourceName, isTestPath } from './source-files.js';
import type { ContextSource } from './source.js';
import type { ContextResult, ShownFile, ShownReason } from './types.js';

/** Characters set aside for the changelog's newest section at most. */
const CHANGELOG_ROOM = 2_400;
/** Bytes read for one context at most (files past it are left out). */
const MAX_READ_BYTES = 8 * 1024 * 1024;

/** Build the context for one prompt, reading through `source` and parsing through `cache`. */
export async function buildContext(
  input: ContextInput,
  source: ContextSource,
  cache: ParseCache,
): Promise<ContextResult> {
  const index = cache.index(input.tree);
  const nodes = new Map<string, ContextNode>();
  const node = (path: string, reason: ShownReason, detail: string, distance: number): ContextNode | null => {
    if (!index.has(path)) return null;
    let n = nodes.get(path);
    if (n === undefined) {
      n = { path, reason, detail, distance, order: nodes.size, imported: false, lines: [], ranges: [], carried: new Map(), lead: null }; // prettier-ignore
      nodes.set(path, n);
    } else if (distance < n.distance) Object.assign(n, { reason, detail, distance });
    return n;
  };

  // the seeds: asked, the failure, the directive, the changes so far
  for (const a of input.asked ?? []) node(a.path, 'asked', 'asked for', 0)?.ranges.push(...(a.ranges ?? []));
  const report = input.failureOutput.trim() === '' ? null : readFailureReport(input.failureOutput, input.workdir);
  const dataFiles: string[] = [];
  for (const f of report ? failureFiles(report, index) : []) {
    const detail = f.lines.length ? `line ${f.lines.slice(0, 3).join(', ')} in the failure` : 'named by the failure';
    node(f.path, 'failure', detail, 0)?.lines.push(...f.lines);
    if (!isSourceName(baseName(f.path))) dataFiles.push(f.path);
  }
  const refs = directiveRefs(input.directive, index);
  for (const p of refs.paths) {
    const linked = refs.lines.get(p) ?? [];
    const said = linked.length === 0 ? 'named' : `line ${[...new Set(linked)].join('-')} linked`;
    node(p, 'directive', `${said} in the directive`, 0)?.lines.push(...linked);
  }
  // files changed so far lead somewhere only when nothing else does; otherwise they are added after
  // the imports are followed, keeping the rank (and order) they had before they changed
  let changedAdded = false;
  const addChanged = (): void => {
    if (changedAdded) return;
    changedAdded = true;
    for (const [p, ranges] of input.changed) {
      const n = nodes.get(p) ?? node(p, 'changed', 'changed so far', 0);
      n?.lines.push(...ranges.flatMap((r) => [r.start, r.end]));
    }
  };
  if (report && report.testNames.length > 0 && ![...nodes.values()].some((n) => isFailingTest(n))) {
    for (const hit of await findTestsByName(report.testNames, index, source)) {
      node(hit.path, 'failure', `holds the failing test "${hit.name.slice(0, 60)}"`, 0)?.lines.push(hit.line);
    }
  }
  if (nodes.size === 0) addChanged();
  const leads = new Map<string, Lead>();
  for (const name of refs.names) addLead(leads, name, { weight: WEIGHT.directive, why: 'named in the directive' });
  // nothing else to go on (no failure, no path, no change): look for the code the directive quotes
  // and for what it names
  if (nodes.size === 0) {
    const quoted = refs.quotes.map((text) => ({ text, why: 'quoted in the directive' }));
    for (const hit of await findMessageFiles(quoted, index, source, [], [])) {
      node(hit.path, 'directive', `holds "${hit.message.text.slice(0, 60)}", quoted in the directive`, 0)?.lines.push(...hit.lines); // prettier-ignore
    }
  }
  if (nodes.size === 0) {
    for (const hit of await findDefinitionsByName(refs.names, index, source)) {
      node(hit.path, 'directive', `defines ${hit.name}`, 0);
    }
  }
  // a data-driven failure: the code named after its data (`components/prism-java.js` for `tests/languages/java/…`)
  for (const { word, paths } of report ? filesNamedAfter(dataWords(dataFiles, report.titles), index) : []) {
    for (const p of paths) {
      const n = node(p, 'failure', `named after "${word}", the failing test's data`, 1);
      if (n !== null && n.lead === null) n.lead = { weight: WEIGHT.title, detail: n.detail };
    }
  }

  // read: everything when the repository is small, else the seeds, then what they lead to
  const reader = new ContextReader(index, source, cache, MAX_READ_BYTES);
  const sourceBytes = index.sources.reduce((n, p) => n + index.byPath.get(p)!.size + FILE_OVERHEAD, 0);
  const wholeRepository = index.sources.length > 0 && sourceBytes <= input.budget.chars;
  const seeds = [...nodes.values()].filter((n) => n.distance === 0);
  await reader.read([
    ...nodes.keys(),
    ...manifestsFor(
      index,
      seeds.map((n) => n.path),
    ),
    ...(wholeRepository ? index.sources : []),
  ]);
  const facts = readFacts(new Map([...reader.texts].filter(([p]) => isFactManifest(p)).map(([p, t]) => [p, t.text])));
  // in a file the directive names: the lines holding the code it quotes, the definitions its words name
  for (const n of seeds) {
    const text = reader.texts.get(n.path)?.text;
    if (n.reason !== 'directive' || text === undefined) continue;
    n.lines.push(...linesHolding(text, refs.quotes));
    for (const d of reader.analyses.get(n.path)?.definitions ?? []) {
      if (refs.words.includes(d.name) && d.kind !== 'variable')
        addLead(leads, d.name, { weight: WEIGHT.directive, why: 'named in the directive' });
    }
  }

  // what the failure leads to: the failing code's names, its frames, the messages it asserts or prints
  const references = new Map<string, number>();
  const messages = report ? printedStrings(report.messages) : [];
  const roots: ChainRoot[] = [];
  for (const n of seeds) {
    const text = reader.texts.get(n.path)?.text;
    const analysis = reader.analyses.get(n.path);
    if (text === undefined || analysis === undefined) continue;
    if (report && isFailingTest(n) && n.lines.length === 0) n.lines.push(...linesOfTests(text, report.testNames));
    const regions = failingRegions(text, analysis, n.lines);
    // the calls of the failing tests' own code start the call chain
    if (isFailingTest(n)) roots.push(...regions.map((r) => ({ path: n.path, ...r })));
    for (const i of analysis.identifiers) {
      if (regions.length === 0 || regions.some((r) => r.start <= i.line && i.line <= r.end))
        references.set(i.name, (references.get(i.name) ?? 0) + 1);
    }
    failingNames({ text, analysis, lines: n.lines, test: isTestPath(n.path) }, leads);
    if (isFailingTest(n)) messages.unshift(...assertedStrings(text, regions));
  }
  for (const name of report?.frames ?? []) addLead(leads, name, { weight: WEIGHT.frame, why: 'in the traceback' });
  for (const n of seeds) {
    for (const [name, lead] of leads) if (lead.weight >= WEIGHT.used) n.carried.set(name, MAX_HOPS - 1);
  }
  // the message search runs (in git, for a tree) while the imports are followed
  const near = [...new Set(seeds.map((n) => dirName(n.path)))];
  const wanted = uniqueTexts(messages);
  const found = cache.searchOnce(index, JSON.stringify([wanted, near]), () =>
    findMessageFiles(wanted, index, source, near, [...reader.texts.values()]),
  );
  await followImports(seeds, (p, detail, distance) => node(p, 'import', detail, distance), reader, index, facts);
  // a data-driven failure: the code its runner loads for the failing data (`components/prism-go.js`)
  if (report) {
    const runners = [...nodes.values()].filter((n) => n.distance <= 2 && isTestPath(n.path));
    const patterns = runners.flatMap((n) => runnerPatterns(reader.texts.get(n.path)?.text ?? ''));
    for (const { word, path } of filesFromPatterns(patterns, runNames(dataFiles, report.titles), index)) {
      const n = node(path, 'failure', `loaded by the test runner for "${word}", the failing test's data`, 1);
      if (n !== null && n.lead === null) n.lead = { weight: WEIGHT.message, detail: n.detail };
    }
  }
  const hits = await found;
  for (const hit of hits) {
    const detail = `holds "${hit.message.text.slice(0, 60)}", ${hit.message.why}`;
    const n = node(hit.path, 'failure', detail, 1);
    if (n === null) continue;
    n.lines.push(...hit.lines);
    if (n.lead === null) n.lead = { weight: WEIGHT.message, detail };
  }
  await reader.read([...nodes.keys()]);
  addChanged();
  await reader.read([...input.changed.keys()]);

  // the call chain from the failing test: what it calls, what that calls, a few calls down
  const aliases = new Map<string, string>();
  for (const [p, a] of reader.analyses) {
    if (!isTestPath(p))
      for (const [alias, fn] of deriveMacros(reader.texts.get(p)?.text ?? '', a)) aliases.set(alias, fn);
  }
  const chains = await chainLeads(roots, reader, index, facts, aliases);
  for (const [p, chain] of chains) node(p, 'import', chain.detail, chain.depth + 1);

  // names: derive macros, definitions named like the failing test, what the named definitions call
  const code = [...reader.analyses].filter(([p]) => !isTestPath(p));
  for (const [alias, fn] of aliases) {
    const lead = leads.get(alias);
    if (lead) addLead(leads, fn, { ...lead, as: `the derive macro ${alias}` });
  }
  const named = code.flatMap(([, a]) => a.definitions.filter((d) => d.kind !== 'variable' && d.kind !== 'const'));
  for (const name of namedLike(
    named.map((d) => d.name),
    titleWords([...(report?.titles ?? []), ...messages.filter((m) => m.text.length <= 60).map((m) => m.text)]),
  ))
    addLead(leads, name, { weight: WEIGHT.title, why: 'named like the failing test' });
  // test helpers (fixtures, `mustParse(t, …)`) call the code too: every file read counts for callees
  addCallees(
    leads,
    [...reader.analyses].map(([p, analysis]) => ({ analysis, text: reader.texts.get(p)?.text ?? '' })),
  );
  const defined = definers(code.map(([, a]) => a));
  const variants = variantLeads(leads);

  const what: CandidateLeads = { texts: reader.texts, analyses: reader.analyses, leads, defined, variants, chains, changed: input.changed, quoted: refs.quoted }; // prettier-ignore
  const candidates: Candidate[] = [];
  const push = (n: ContextNode): void => void candidates.push(toCandidate(n, what));
  for (const n of nodes.values()) push(n);
  if (wholeRepository) {
    for (const p of index.sources) {
      if (!nodes.has(p)) push({ path: p, reason: 'repository', detail: 'small repository', distance: 99, order: 0, imported: false, lines: [], ranges: [], carried: new Map(), lead: null }); // prettier-ignore
    }
  }
  // the changelog's newest section, where a fix adds its entry: its room set aside, shown last
  const log = changelogPath(index);
  let logged: ShownFile[] = [];
  let budget = input.budget;
  if (log !== null && !nodes.has(log)) {
    await reader.read([log]);
    const t = reader.texts.get(log);
    const logCandidate = t === undefined ? null : changelogCandidate(log, t.text);
    if (logCandidate !== null) {
      logged = planContext([logCandidate], { ...budget, chars: CHANGELOG_ROOM, mapChars: 0 }, references).files;
      const used = logged.reduce((n, f) => n + f.text.length + FILE_OVERHEAD, 0);
      budget = { ...budget, chars: Math.max(0, budget.chars - used) };
    }
  }
  const ranked = rankCandidates(candidates, references);
  const plan = planContext(ranked, budget, references, wholeRepository);
  return {
    files: [...plan.files, ...logged],
    map: plan.map,
    wholeRepository: wholeRepository && plan.files.length >= index.sources.length,
    sourceFiles: index.sources.length,
    read: [...reader.texts.values()],
  };
}

/** A file of tests the failure names. */
function isFailingTest(n: ContextNode): boolean {
  return n.reason === 'failure' && n.distance === 0 && isTestPath(n.path) && languageForPath(n.path) !== null;
}
