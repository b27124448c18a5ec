// The captured runner outputs under test/fixtures/test-output.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const DIR = path.join(import.meta.dirname, '../../fixtures/test-output');

/** A captured output, as the runner printed it. */
export function fixture(name: string): string {
  return readFileSync(path.join(DIR, name), 'utf8');
}
