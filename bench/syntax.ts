// Syntax benchmark: what the tree-sitter layer (src/syntax) costs. Cold figures run in fresh node
// processes (nothing loaded yet); warm figures parse a generated 5,000-line file per language.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LANGUAGE_IDS, analyzeSource, parseProblems, type LanguageId } from '../src/syntax/index.js';
import { heading, printFigure, sample } from './lib.js';

const COLD_RUNS = 5;
const WARM_RUNS = 10;
const LINES = 5_000;

/** A realistic block of each language, with `N` replaced to keep names distinct. */
const BLOCKS: Record<LanguageId, string> = {
  python: `
@dataclass
class AccountN(Base):
    """An account."""

    owner: str

    @property
    def balanceN(self) -> int:
        total = 0
        for entry in self.entries:
            if entry.amount > LIMIT:
                raise ValueError(f"too much: {entry.amount}")
            total += entry.amount
        return total


def transferN(src: AccountN, dst: AccountN, amount: int) -> None:
    events.emit("transfer", src, dst, amount)
`,
  javascript: `
export const formatN = (text, width = 80) => {
  return text.padEnd(width);
};

export class RendererN extends Base {
  onResize = (event) => {
    this.width = event.width;
  };

  render(items) {
    return items.map((item) => <li key={item.id}>{item.label}</li>);
  }
}

function helperN(a, b) {
  if (a > b) return a - b;
  return b - a;
}
`,
  typescript: `
export interface ShapeN extends Named {
  area(): number;
}

export class CircleN implements ShapeN {
  constructor(private readonly radius: number) {}

  area(): number {
    return Math.PI * this.radius ** 2;
  }
}

export const toIdN = <T extends { id: string }>(value: T): string => value.id;

export function sumN(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
`,
  tsx: `
export const CounterN = ({ start }: { start: number }): JSX.Element => {
  const [n, setN] = useState<number>(start);
  return (
    <button onClick={() => setN(n + 1)} className="counter">
      {n}
    </button>
  );
};

export function ListN<T>({ items }: { items: T[] }) {
  return <ul>{items.map((item, i) => <li key={i}>{String(item)}</li>)}</ul>;
}
`,
  go: `
type StackN[T any] struct {
	items []T
}

func (s *StackN[T]) Push(v T) error {
	if len(s.items) >= MaxDepth {
		return fmt.Errorf("depth %d", MaxDepth)
	}
	s.items = append(s.items, v)
	return nil
}

func NewN[T any]() *StackN[T] {
	return &StackN[T]{}
}
`,
  rust: `
pub struct CelsiusN(pub f64);

impl CelsiusN {
    pub fn new(value: f64) -> Self {
        CelsiusN(value)
    }

    pub fn to_fahrenheit(&self) -> f64 {
        self.0 * 9.0 / 5.0 + 32.0
    }
}

impl fmt::Display for CelsiusN {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} C", self.0)
    }
}
`,
};

const HEADERS: Record<LanguageId, string> = {
  python: 'from dataclasses import dataclass\nimport events\n\nLIMIT = 100\n',
  javascript: "import { Base } from './base.js';\n",
  typescript: "import type { Named } from './named.js';\n",
  tsx: "import { useState } from 'react';\n",
  go: 'package stack\n\nimport "fmt"\n\nconst MaxDepth = 1024\n',
  rust: 'use std::fmt;\n',
};

/** A file of about `lines` lines of the language. */
function bigFile(id: LanguageId, lines: number): string {
  const parts = [HEADERS[id]];
  let count = HEADERS[id].split('\n').length;
  for (let i = 0; count < lines; i++) {
    const block = BLOCKS[id].replace(/N\b/g, String(i));
    parts.push(block);
    count += block.split('\n').length - 1;
  }
  return parts.join('');
}

const coldSchema = z.object({
  importMs: z.number(),
  runtimeMs: z.number(),
  firstCallMs: z.record(z.string(), z.number()),
});

/** One fresh process: import the module, initialise the runtime, then each language's first call. */
function coldRun(): z.infer<typeof coldSchema> {
  const syntaxUrl = new URL('../src/syntax/index.js', import.meta.url).href;
  const script = `
const t0 = performance.now();
const syntax = await import(${JSON.stringify(syntaxUrl)});
const importMs = performance.now() - t0;
const t1 = performance.now();
const { Parser } = await import('web-tree-sitter');
await Parser.init();
const runtimeMs = performance.now() - t1;
const firstCallMs = {};
for (const id of syntax.LANGUAGE_IDS) {
  const t = performance.now();
  await syntax.analyzeSource(id, '');
  firstCallMs[id] = performance.now() - t;
}
process.stdout.write(JSON.stringify({ importMs, runtimeMs, firstCallMs }));
`;
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd, encoding: 'utf8' });
  return coldSchema.parse(JSON.parse(out));
}

/** Run the syntax benchmark and print its figures. */
export async function benchSyntax(): Promise<void> {
  heading(
    `syntax: tree-sitter (web-tree-sitter) cold start in fresh processes (n=${COLD_RUNS}), then a ${LINES.toLocaleString('en-US')}-line file per language, warm`,
  );
  const cold = Array.from({ length: COLD_RUNS }, coldRun);
  printFigure({
    name: 'import src/syntax (nothing parsed: the runtime stays unloaded)',
    samples: cold.map((c) => c.importMs),
  });
  printFigure({ name: 'runtime init (web-tree-sitter Parser.init)', samples: cold.map((c) => c.runtimeMs) });
  for (const id of LANGUAGE_IDS) {
    printFigure({
      name: `first call, ${id}: grammar load + query compile`,
      samples: cold.map((c) => c.firstCallMs[id] ?? Number.NaN),
    });
  }
  for (const id of LANGUAGE_IDS) {
    const text = bigFile(id, LINES);
    const lines = text.split('\n').length;
    await analyzeSource(id, text);
    printFigure({
      name: `${id} ${lines} lines (${Math.round(text.length / 1024)} KB): parse + problems`,
      samples: await sample(WARM_RUNS, () => parseProblems(id, text)),
    });
    printFigure({
      name: `${id} ${lines} lines: full analysis (defs, imports, ids)`,
      samples: await sample(WARM_RUNS, () => analyzeSource(id, text)),
    });
  }
}
