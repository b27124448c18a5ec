// What failing test output says about where the failure is: file locations and failing test names,
// for pytest/unittest, node's test runner (TAP and spec), Jest/Vitest/Mocha, go test and cargo test.

/** A place the output names, as written (the workspace prefix and file:// removed). */
export interface FailureLocation {
  path: string;
  line: number | null;
  /** Where in the output it was named (earlier first). */
  at: number;
}

/** Locations, failing test names, Go packages and Python modules named by failing output. */
export interface FailureReport {
  locations: FailureLocation[];
  /** Names of failing tests, innermost part only (`test_add`, `TestAbs`, `adds numbers`). */
  testNames: string[];
  /** Go import paths of failing packages (`FAIL\texample.com/m/pkg`), in order. */
  goPackages: string[];
  /** Failing unittest ids as written (`tests.test_calc.TestCalc.test_add`): a prefix names the module. */
  pythonModules: string[];
}

/** A failing test's name is at most this long (longer lines are not names). */
const MAX_NAME = 200;
/** The most output read for locations: the head and tail halves of longer output. */
const MAX_SCAN = 512 * 1024;

const LOCATION_PATTERNS: readonly RegExp[] = [
  // Python tracebacks
  /File "([^"\n]+)", line (\d+)/g,
  // pytest node ids
  /(?:^|[\s(])([^\s:()"']+\.[A-Za-z0-9]+)::[A-Za-z_]/gm,
  // path:line[:col] (pytest short tracebacks, go test, compilers, stack traces, TAP `location:`)
  /(?:^|[\s('"[<]|file:\/\/)([^\s:()"'[\]<>]+\.[A-Za-z][A-Za-z0-9]*):(\d+)(?::\d+)?/gm,
  // Jest and Vitest name the failing file without a line
  /^\s*FAIL\s+([^\s:]+\.[A-Za-z][A-Za-z0-9]*)(?=\s|$)/gm,
];

const NAME_PATTERNS: readonly RegExp[] = [
  /^FAILED [^\s:]+::(?:[\w[\]-]+::)*([\w-]+)(?:\[[^\]\n]*\])?/gm, // pytest summary
  /^_{3,} (?:[\w.]+\.)?(\w+)(?:\[[^\]\n]*\])? _{3,}$/gm, // pytest section
  /^(?:FAIL|ERROR): (\w+) \(/gm, // unittest
  /^\s*--- FAIL: (\w+)/gm, // go test
  /^---- (?:[\w:]+::)?(\w+) stdout ----$/gm, // cargo test
  /^test (?:[\w:]+::)?(\w+) \.\.\. FAILED$/gm, // cargo test
  /^\s*not ok \d+ - (.+)$/gm, // TAP (a `# SKIP`/`# TODO` directive is cut off below)
  /^\s*[✖✗✘×] (.+)$/gm, // node --test spec reporter, Vitest, custom runners
  /^\s*● (.+)$/gm, // Jest
  /^\s*FAIL\s+\S+ > (.+)$/gm, // Vitest
  /^\s+\d+\) (?:.+\n\s+)?(.+?):$/gm, // Mocha
];

/** Read the locations and failing test names from test output. */
export function readFailureReport(output: string, workdir = '/workspace'): FailureReport {
  const text = output.length > MAX_SCAN ? `${output.slice(0, MAX_SCAN / 2)}\n${output.slice(-MAX_SCAN / 2)}` : output;
  const dir = workdir.replace(/\/+$/, '');
  const locations: FailureLocation[] = [];
  for (const re of LOCATION_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const path = cleanPath(m[1]!, dir);
      if (path === null) continue;
      locations.push({ path, line: m[2] === undefined ? null : Number(m[2]), at: m.index });
    }
  }
  locations.sort((a, b) => a.at - b.at);
  const names: { at: number; name: string }[] = [];
  for (const re of NAME_PATTERNS) {
    for (const m of text.matchAll(re)) {
      if (m[1]!.length > MAX_NAME) continue;
      const name = innermostName(m[1]!);
      if (name !== '') names.push({ at: m.index, name });
    }
  }
  names.sort((a, b) => a.at - b.at);
  const goPackages = [...text.matchAll(/^(?:FAIL|---\s*FAIL:?)\s+([\w.-]+(?:\/[\w.~-]+)*)\s+(?:[\d.]+s|\[)/gm)]
    .map((m) => m[1]!)
    .concat([...text.matchAll(/^# ([\w.-]+(?:\/[\w.~-]+)*)(?: \[[^\]\n]*\])?$/gm)].map((m) => m[1]!));
  const pythonModules = [...text.matchAll(/^(?:FAIL|ERROR): \w+ \(([\w.]+)\)/gm)].map((m) => m[1]!);
  return {
    locations,
    testNames: unique(names.map((n) => n.name)),
    goPackages: unique(goPackages),
    pythonModules: unique(pythonModules),
  };
}

/** The test's own name: the last part of `suite > test` or `suite › test`, without a duration. */
function innermostName(raw: string): string {
  const hash = raw.search(/ # (?:SKIP|TODO)\b/);
  const name = (hash < 0 ? raw : raw.slice(0, hash)).replace(/\s+\(?\d+(?:\.\d+)?\s*m?s\)?\s*$/, '').trim();
  return name
    .split(/ [>›] /)
    .at(-1)!
    .trim();
}

/** A path as written in output, made repository-relative (null for an absolute path outside the workdir). */
function cleanPath(raw: string, workdir: string): string | null {
  let p = raw.replace(/^file:\/\//, '');
  if (p.startsWith(`${workdir}/`)) p = p.slice(workdir.length + 1);
  else if (p.startsWith('/')) return null;
  p = p.replace(/^(\.\/)+/, '');
  if (p === '' || p.split('/').includes('..') || p.startsWith('node:')) return null;
  return p;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
