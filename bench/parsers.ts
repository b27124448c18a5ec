// Parser benchmark: the parser corpus (test/fixtures/tool-calls: model answers in the shapes of
// vLLM's, llama.cpp's and Ollama's parser tests, with the calls those stacks read from them) read
// by parseTurn: how many read as the peers read them, how many were read wrongly (calls that would
// run differently: a value cut short, a call run from inside a value, a call dropped; must be 0),
// and how many were refused where the peers read calls. The reference, on the qwen3-coder answers,
// is the reading a non-greedy pattern gives (a value ends at the first `</parameter>`, every
// `<function=` opens a call): the reading the peers' knowledge of the tools is there to beat. Plus
// the host's cost of reading one answer. Correctness, not time, decides this section.
import { parseTurn } from '../src/agent/parse-turn.js';
import { toAction } from '../src/agent/to-action.js';
import type { AgentAction } from '../src/agent/types.js';
import { PARSER_CASES, type ParserCase } from '../test/fixtures/tool-calls/corpus.js';
import { judgeCase } from '../test/fixtures/tool-calls/judge.js';
import { heading, printFigure } from './lib.js';

const pct = (n: number, d: number): string => `${n}/${d} (${d === 0 ? 0 : Math.round((100 * n) / d)}%)`;

/** The non-greedy reading: each `<function=` a call, each value up to the first `</parameter>`. */
function patternReading(text: string): AgentAction[] | null {
  const out: AgentAction[] = [];
  for (const call of text.matchAll(/<function=([^>\n]+)>([\s\S]*?)(?:<\/function>|$)/g)) {
    const args: Record<string, string> = {};
    for (const p of call[2]!.matchAll(
      /<parameter=([^>\n]+)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|(?=<\/function>)|$)/g,
    )) {
      const key = p[1]!.trim();
      const v = p[2]!.replace(/^\n/, '');
      args[key] = key === 'file_text' ? v : v.replace(/\n$/, '');
    }
    const r = toAction(call[1]!.trim(), args);
    if (!r.ok) return null;
    out.push(r.action);
  }
  return out;
}

function same(a: readonly AgentAction[], b: readonly AgentAction[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Run the parser benchmark and print its figures. */
export async function benchParsers(): Promise<void> {
  await Promise.resolve();
  const cases = PARSER_CASES;
  const peers = new Map<string, number>();
  for (const c of cases) peers.set(c.peer, (peers.get(c.peer) ?? 0) + 1);
  heading(
    `parsers: the parser corpus (${cases.length} answers in the peers' shapes: ${[...peers].map(([p, n]) => `${p} ${n}`).join(', ')}), read by parseTurn`,
  );
  const judged = cases.map((c) => ({ c, j: judgeCase(c) }));
  const right = judged.filter((x) => x.j.verdict === 'right').length;
  const wrong = judged.filter((x) => x.j.verdict === 'wrong');
  const refused = judged.filter((x) => x.j.verdict === 'refused');
  const out: string[] = [];
  out.push(`read as the peers read them        ${pct(right, cases.length)}`);
  out.push(
    `read wrongly (must be 0)           ${wrong.length}${wrong.length > 0 ? `: ${wrong.map((x) => x.c.name).join('; ')}` : ''}`,
  );
  out.push(
    `refused where the peers read calls ${refused.length}${refused.length > 0 ? `: ${refused.map((x) => x.c.name).join('; ')}` : ''}`,
  );
  const cut = cases.filter((c) => 'refused' in c.expect && c.expect.refused === 'cut');
  const cutHeld = cut.filter((c) => judged.find((x) => x.c === c)!.j.verdict === 'right').length;
  out.push(`cut-off answers that ran nothing   ${pct(cutHeld, cut.length)}`);
  // the qwen3-coder answers that make calls: the tool-aware reading beside the non-greedy pattern
  const xml = cases.filter(
    (c): c is ParserCase & { expect: { calls: AgentAction[] } } =>
      'calls' in c.expect && /<function=/.test(c.text) && !/<think>|<\/think>/.test(c.text),
  );
  const ours = xml.filter((c) => judged.find((x) => x.c === c)!.j.verdict === 'right').length;
  const byPattern = xml.map((c) => patternReading(c.text));
  const patternRight = xml.filter((c, k) => byPattern[k] !== null && same(byPattern[k]!, c.expect.calls)).length;
  const patternWrong = xml.filter((c, k) => byPattern[k] !== null && !same(byPattern[k]!, c.expect.calls)).length;
  out.push(
    `qwen3-coder answers with calls     parseTurn ${pct(ours, xml.length)}, read wrongly ${xml.length - ours - xml.filter((c) => judged.find((x) => x.c === c)!.j.verdict === 'refused').length}`,
  );
  out.push(
    `  vs the non-greedy pattern        ${pct(patternRight, xml.length)}, read wrongly ${patternWrong} (values cut at the first </parameter>, calls run from inside values)`,
  );
  out.push('by format (read as the peers read them):');
  const formatOf = (c: ParserCase): string => {
    const t = c.text;
    if (/<\|channel\|>/.test(t)) return 'gpt-oss harmony';
    if (/<\|tool_call\|>/.test(t)) return 'granite';
    if (/<[｜|]tool/.test(t)) return 'deepseek';
    if (/\[TOOL_CALLS\]/.test(t)) return 'mistral';
    if (/<\|python_tag\|>/.test(t)) return 'llama 3.1 python_tag';
    if (/>>>|^\w+\n\{/.test(t)) return 'functionary v3.2';
    if (/functools\[/.test(t)) return 'firefunction v2';
    if (/<\|START_/.test(t)) return 'command-r7b';
    if (/<function=/.test(t)) return 'qwen3-coder xml';
    if (/<tool_call>/.test(t)) return 'hermes json';
    return 'bare json (llama 3)';
  };
  const byFormat = new Map<string, { n: number; right: number }>();
  for (const { c, j } of judged) {
    const f = formatOf(c);
    const e = byFormat.get(f) ?? { n: 0, right: 0 };
    e.n++;
    if (j.verdict === 'right') e.right++;
    byFormat.set(f, e);
  }
  for (const [f, e] of [...byFormat].sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0])))
    out.push(`  ${f.padEnd(24)} ${String(e.right).padStart(3)}/${e.n}`);
  process.stdout.write(`${out.join('\n')}\n`);

  const samples: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const c of cases) {
      const t0 = performance.now();
      parseTurn({ text: c.text, ...(c.finishReason === undefined ? {} : { finishReason: c.finishReason }) });
      if (round > 0) samples.push(performance.now() - t0);
    }
  }
  printFigure({ name: 'host: read one answer for calls', samples });
}
