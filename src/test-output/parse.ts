// Read a test command's output: every recognised runner's failures, counts and summary lines.
import { failureKind } from './failure-kind.js';
import { capName, outputLines, type RunnerParser } from './lines.js';
import { parseCargo } from './runners/cargo.js';
import { parseGeneric } from './runners/generic.js';
import { parseGo } from './runners/go.js';
import { parseJest } from './runners/jest.js';
import { parseMocha } from './runners/mocha.js';
import { parseNodeSpec } from './runners/node-spec.js';
import { parsePytest } from './runners/pytest.js';
import { parseTap } from './runners/tap.js';
import { parseUnittest } from './runners/unittest.js';
import { parseVitest } from './runners/vitest.js';
import type { TestOutputReport } from './types.js';

const PARSERS: readonly RunnerParser[] = [
  parsePytest,
  parseUnittest,
  parseTap,
  parseNodeSpec,
  parseJest,
  parseVitest,
  parseMocha,
  parseGo,
  parseCargo,
];

/**
 * What a test output says: the runners in it (several when a command runs more than one), the failing
 * tests with filterable ids, files, lines and the line range of each failure's explanation, the counts
 * printed, and the summary lines worth keeping. Line numbers are 1-based lines of `text`; colour codes are
 * ignored. When no known runner is recognised, the generic forms are read (`N of M tests passed`,
 * `Test N failed`, a script's traceback, a last `OK`: runner `generic`). Pure; an output nothing
 * recognises gives an empty report (the run's result is then unread).
 */
export function parseTestOutput(text: string): TestOutputReport {
  const lines = outputLines(text);
  const known = PARSERS.map((p) => p(lines)).filter((p) => p !== null);
  const generic = known.length === 0 ? parseGeneric(lines) : null;
  const parsed = (generic === null ? known : [generic]).sort((a, b) => a.firstLine - b.firstLine);
  return {
    runners: parsed.map((p) => p.runner),
    failures: parsed
      .flatMap((p) => p.failures)
      .map((f) => {
        const kind = failureKind(lines, f.block);
        return {
          ...f,
          file: f.file === null ? null : capName(f.file),
          package: f.package === null ? null : capName(f.package),
          ...(kind === null ? {} : { kind }),
        };
      }),
    counts: parsed.flatMap((p) => (p.counts === null ? [] : [p.counts])),
    summaries: parsed.flatMap((p) => p.summaries).sort((a, b) => a.start - b.start),
  };
}
