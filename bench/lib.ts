// Helpers shared by the benchmarks: sample, summarise, print. Benchmarks print figures; they never fail on one.

/** One printed figure: a median with its spread, optionally compared with a reference and a target. */
export interface Figure {
  name: string;
  samples: number[];
  unit?: string;
  /** A reference measurement (e.g. the docker CLI doing the same), printed as a ratio. */
  reference?: { name: string; samples: number[] };
  /** The target median from the issue, printed as met or not. */
  targetMedian?: number;
}

/** Median of the samples. */
export function median(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** The p-th percentile (0..100) of the samples, nearest rank. */
export function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number;
}

/** Run `fn` `warmup` times unmeasured, then `n` times, returning wall-clock milliseconds per run. */
export async function sample(n: number, fn: () => Promise<unknown>, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const fmt = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

/** Print a figure as one aligned line: median, p90, n, reference ratio and target verdict. */
export function printFigure(f: Figure): void {
  const unit = f.unit ?? 'ms';
  const med = median(f.samples);
  let line = `${f.name.padEnd(58)} median ${fmt(med).padStart(7)} ${unit}  p90 ${fmt(percentile(f.samples, 90)).padStart(7)} ${unit}  n=${f.samples.length}`;
  if (f.reference) {
    const ref = median(f.reference.samples);
    line += `\n${''.padEnd(4)}vs ${f.reference.name.padEnd(54)} median ${fmt(ref).padStart(7)} ${unit}  ratio ${(med / ref).toFixed(2)}x`;
  }
  if (f.targetMedian !== undefined) {
    line += `\n${''.padEnd(4)}target median <= ${f.targetMedian} ${unit}: ${med <= f.targetMedian ? 'met' : 'NOT met'}`;
  }
  process.stdout.write(`${line}\n`);
}

/** Print a section heading. */
export function heading(title: string): void {
  process.stdout.write(`\n== ${title}\n`);
}
