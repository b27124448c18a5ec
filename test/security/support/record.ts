// Rows of the `make security` table: each attack test records what it expected and what it saw.
// Rows are JSON lines appended to HAMMER_SECURITY_RESULTS (scripts/security-table.mjs prints them).
import { appendFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** One row of the table. */
export interface SecurityRow {
  attack: string;
  expected: string;
  observed: string;
  verdict: 'pass' | 'FAIL';
}

/** Where rows go: HAMMER_SECURITY_RESULTS, else a file in the temp directory. */
export function resultsFile(): string {
  return process.env['HAMMER_SECURITY_RESULTS'] ?? join(tmpdir(), 'hammer-box-security', 'results.ndjson');
}

/** Append one row. */
export function recordRow(row: SecurityRow): void {
  const file = resultsFile();
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(row)}\n`);
}

/**
 * Run one attack's checks: `check` asserts (throwing on failure) and returns what it observed. The
 * row says pass with that observation, or FAIL with the first line of the failure, which is rethrown.
 */
export async function attack(name: string, expected: string, check: () => Promise<string> | string): Promise<void> {
  try {
    const observed = await check();
    recordRow({ attack: name, expected, observed, verdict: 'pass' });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    recordRow({
      attack: name,
      expected,
      observed: (msg.split('\n').find((l) => l.trim()) ?? msg).slice(0, 200),
      verdict: 'FAIL',
    });
    throw err;
  }
}
