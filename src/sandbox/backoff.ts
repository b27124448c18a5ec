// The waits of a retry with backoff within a time budget (pure): shared by the removal of a run's
// sandboxes and the Kubernetes backend's ride through an API-server outage.

/** Waits starting at `firstMs`, doubling up to `maxMs`, their sum at most `budgetMs`. */
export function doublingDelays(firstMs: number, maxMs: number, budgetMs: number): number[] {
  const out: number[] = [];
  let total = 0;
  for (let d = firstMs; total + d <= budgetMs; d = Math.min(d * 2, maxMs)) {
    out.push(d);
    total += d;
  }
  return out;
}
