// pytest: the FAILURES/ERRORS sections (`____ test_name ____` blocks), the short summary
// (`FAILED tests/x.py::test_y - …`), `-v` result lines, and the closing counts.
import { MAX_FAILURES, capName, num, range, trimBlankEnd, type RunnerParse, type RunnerParser } from '../lines.js';
import type { LineRange, TestFailure } from '../types.js';

const SECTION = /^={3,} (.+?) ={3,}$/;
const HEADER = /^_{3,} (.+?) _{3,}$/;
const SUMMARY_ITEM = /^(FAILED|ERROR) (.+?\.py(?:::.+?)?)(?: - .*)?$/;
const VERBOSE_ITEM = /^(\S+\.py::.+?) (FAILED|ERROR)(?: |$)/;
const COUNTS = /^(?:=+ )?((?:\d+ [a-z]+, )*\d+ [a-z]+) in \d+(?:\.\d+)?s\b/;
const COUNT_WORDS = /^(passed|failed|errors?|skipped|xfailed|xpassed|warnings?|deselected|rerun)$/;
const LOCATION = /^(\S+\.py):(\d+): /;
const HEADER_PREFIX = /^ERROR (?:at (?:setup|teardown) of |collecting )/;

interface Block {
  header: string;
  range: LineRange;
  file: string | null;
  line: number | null;
}

/** The failing tests pytest reported. */
export const parsePytest: RunnerParser = (lines) => {
  const blocks: Block[] = [];
  const items = new Map<string, number>();
  const summaries: LineRange[] = [];
  let counts: RunnerParse['counts'] = null;
  let firstLine = -1;
  let inFailures = false;
  /** The FAILURES/ERRORS section open now, and whether a `____ name ____` header was seen in it. */
  let failuresSection: { first: number; headers: number } | null = null;
  let open: { header: string; first: number } | null = null;
  let summaryStart = -1;
  const close = (end: number): void => {
    if (open === null) return;
    const last = trimBlankEnd(lines, open.first, end);
    blocks.push({ header: open.header, range: range(open.first, last), ...location(lines, open.first, last) });
    open = null;
  };
  const endSummary = (end: number): void => {
    if (summaryStart >= 0) summaries.push(range(summaryStart, trimBlankEnd(lines, summaryStart, end)));
    summaryStart = -1;
    // a failures section without named blocks (--tb=line, --tb=native) is kept whole
    if (failuresSection !== null && failuresSection.headers === 0) {
      summaries.push(range(failuresSection.first, trimBlankEnd(lines, failuresSection.first, end)));
    }
    failuresSection = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const section = SECTION.exec(text);
    const countsMatch = COUNTS.exec(text);
    if (countsMatch !== null && isCounts(countsMatch[1]!)) {
      close(i - 1);
      endSummary(i - 1);
      inFailures = false;
      counts = readCounts(countsMatch[1]!);
      summaries.push(range(i, i));
      if (firstLine < 0) firstLine = i;
      continue;
    }
    if (section !== null) {
      close(i - 1);
      endSummary(i - 1);
      const title = section[1]!;
      inFailures = title === 'FAILURES' || title === 'ERRORS';
      if (inFailures) failuresSection = { first: i, headers: 0 };
      if (title === 'short test summary info') summaryStart = i;
      if (firstLine < 0 && (inFailures || summaryStart === i || title === 'test session starts')) firstLine = i;
      continue;
    }
    const header = inFailures ? HEADER.exec(text) : null;
    if (header !== null && !/^(?:_ )+_?$/.test(header[1]!)) {
      close(i - 1);
      open = { header: header[1]!, first: i };
      if (failuresSection !== null) failuresSection.headers++;
      continue;
    }
    const id = SUMMARY_ITEM.exec(text)?.[2] ?? VERBOSE_ITEM.exec(text)?.[1];
    if (id !== undefined && items.size < MAX_FAILURES && !items.has(id)) {
      items.set(id, i);
      if (firstLine < 0) firstLine = i;
    }
  }
  close(lines.length - 1);
  endSummary(lines.length - 1);
  if (firstLine < 0) return null;
  return { runner: 'pytest', failures: failures(items, blocks), counts, summaries, firstLine };
};

function isCounts(text: string): boolean {
  return text.split(', ').every((part) => COUNT_WORDS.test(part.split(' ')[1] ?? ''));
}

function readCounts(text: string): RunnerParse['counts'] {
  let passed = 0;
  let failed = 0;
  for (const part of text.split(', ')) {
    const [n, word] = part.split(' ');
    if (word === 'passed') passed += num(n) ?? 0;
    if (word === 'failed' || word === 'error' || word === 'errors') failed += num(n) ?? 0;
  }
  return { runner: 'pytest', passed, failed };
}

/** The location a block names: the first `path.py:N:` line, preferring a path relative to the rootdir. */
function location(lines: readonly string[], first: number, last: number): { file: string | null; line: number | null } {
  let found: { file: string; line: number | null } | null = null;
  for (let i = first; i <= last; i++) {
    const m = LOCATION.exec(lines[i]!);
    if (m === null) continue;
    const here = { file: m[1]!, line: num(m[2]) };
    if (!here.file.startsWith('/')) return here;
    found ??= here;
  }
  return found ?? { file: null, line: null };
}

/** The header pytest prints for a node id: the part after the file, joined by dots. */
function headerOf(nodeId: string): string {
  const [, ...rest] = nodeId.split('::');
  return rest.length === 0 ? nodeId : rest.join('.');
}

/** Split a header on the dots outside a parametrize id (`TestA.test_b[1.5]` → TestA, test_b[1.5]). */
function headerParts(header: string): string[] {
  const bracket = header.indexOf('[');
  const head = bracket < 0 ? header : header.slice(0, bracket);
  const parts = head.split('.');
  if (bracket >= 0) parts[parts.length - 1] += header.slice(bracket);
  return parts;
}

function failures(items: ReadonlyMap<string, number>, blocks: readonly Block[]): TestFailure[] {
  const byHeader = new Map<string, Block>();
  for (const b of blocks) {
    const key = b.header.replace(HEADER_PREFIX, '');
    if (!byHeader.has(key)) byHeader.set(key, b);
  }
  const out: TestFailure[] = [];
  const used = new Set<Block>();
  const ids = new Set(items.keys());
  for (const nodeId of items.keys()) {
    const block = byHeader.get(headerOf(nodeId)) ?? byHeader.get(nodeId) ?? null;
    if (block !== null) used.add(block);
    const file = nodeId.split('::')[0]!;
    out.push({
      runner: 'pytest',
      scope: nodeId.includes('::') ? 'test' : 'file',
      id: capName(nodeId),
      name: capName(block?.header ?? headerOf(nodeId)),
      package: null,
      file: block?.file ?? file,
      line: block?.line ?? null,
      block: block?.range ?? null,
    });
  }
  // Blocks the summary did not name (no summary printed, or it was cut off): ids from the block.
  for (const b of blocks) {
    if (used.has(b) || out.length >= MAX_FAILURES) continue;
    const bare = b.header.replace(HEADER_PREFIX, '');
    const collecting = b.header.startsWith('ERROR collecting ');
    const id = collecting ? bare : b.file !== null ? `${b.file}::${headerParts(bare).join('::')}` : bare;
    if (ids.has(id)) continue;
    ids.add(id);
    out.push({
      runner: 'pytest',
      scope: collecting ? 'file' : 'test',
      id: capName(id),
      name: capName(b.header),
      package: null,
      file: b.file,
      line: b.line,
      block: b.range,
    });
  }
  return out;
}
