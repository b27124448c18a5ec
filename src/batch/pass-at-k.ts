// pass@k: the chance that at least one of k attempts at a task solves it, estimated without bias
// from n >= k attempts of which c solved it (Chen et al. 2021), averaged over the tasks. Pure.

/** 1 - C(n-c, k) / C(n, k): the unbiased pass@k of one task with n attempts, c of them solved. */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || k < 1 || n < k || c < 0 || c > n)
    throw new RangeError(`pass@k needs integers 1 <= k <= n and 0 <= c <= n (n=${n}, c=${c}, k=${k})`);
  if (n - c < k) return 1;
  // the product form of the ratio of binomials, stable for large n
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/** pass@k over many tasks: the mean over the tasks with at least k attempts, and how many there were. */
export interface PassAt {
  k: number;
  /** Null when no task had k attempts. */
  value: number | null;
  tasks: number;
}

/** pass@1 .. pass@K, K the most attempts any task has, over `samples` (n attempts, c solved) per task. */
export function passAtKs(samples: readonly { n: number; c: number }[]): PassAt[] {
  const most = samples.reduce((m, s) => Math.max(m, s.n), 0);
  const out: PassAt[] = [];
  for (let k = 1; k <= Math.max(1, most); k++) {
    const eligible = samples.filter((s) => s.n >= k);
    const sum = eligible.reduce((t, s) => t + passAtK(s.n, s.c, k), 0);
    out.push({ k, value: eligible.length ? sum / eligible.length : null, tasks: eligible.length });
  }
  return out;
}
