// runs list / runs show over states written with the real RunStore (no Docker), through the API,
// the renderers and the commander program.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { listRuns, runSummary, showRun } from '../../../src/api/runs.js';
import { renderRunDetails } from '../../../src/cli/commands/runs-show.js';
import { buildProgram } from '../../../src/cli/program.js';
import { renderError } from '../../../src/cli/render-error.js';
import { isHammerError } from '../../../src/errors.js';
import { renderRunLine, renderRunTable } from '../../../src/report/run-line.js';
import { RunStore } from '../../../src/state/store.js';
import { sealState } from '../../../src/state/state-mac.js';
import { TEST_KEY_ENV, TEST_STATE_KEY, TEST_STATE_SECRET } from '../../helpers/state-key.js';
import { iteration, makeState, testRecord } from '../state/make-state.js';

const OLD = '20261122T140501Z-abcdef';
const NEW = '20261123T090000Z-qwerty';
const BROKEN = '20261124T100000Z-zzzzzz';
const EVIL = '\u001b]0;owned\u0007\u001b[2J';

let repo: string;
let store: RunStore;
const oldState = makeState({
  run_id: OLD,
  status: 'failed',
  reason: 'max_iterations',
  reason_detail: 'gave up after 2 iterations',
  iterations: [iteration(1, 'rejected', { patch: 'a' }), iteration(2, 'unusable')],
});
const newState = makeState({
  run_id: NEW,
  created_at: '2026-11-23T09:00:00.000Z',
  updated_at: '2026-11-23T09:01:00.000Z',
  status: 'stable',
  reason: 'tests_pass',
  directive: { path: 'D.md', text: `\n${EVIL}Fix add\u202e() please\nmore`, sha256: 'd'.repeat(64) },
  branch: { name: 'EngineerExternal/20261123T090000Z', commit: '9'.repeat(40) },
  iterations: [
    {
      ...iteration(1, 'applied', {
        patch: 'b',
        test: testRecord(0, { stdout_tail: `line one\n${EVIL}1 passed\u001b[0m in 0.01s\n` }),
      }),
      summary: `fix add ${EVIL}`,
    },
  ],
});

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'hb-runs-'));
  vi.stubEnv('HAMMER_STATE_KEY', TEST_STATE_SECRET);
  store = new RunStore({ dir: join(repo, '.hammer'), key: TEST_STATE_KEY });
  await store.create(oldState);
  await store.create(newState);
  await store.writeArtifact(NEW, 'PR_SUMMARY.md', '# summary\n');
  await writeFile(
    join(store.runsDir, `${BROKEN}.json`),
    sealState('{\n"schema_version": 1, "run_id": ', TEST_STATE_KEY.bytes),
  );
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(repo, { recursive: true, force: true });
});

describe('listRuns', () => {
  it('lists readable runs newest first and reports the unreadable state file', async () => {
    const listing = await listRuns({ repo, env: TEST_KEY_ENV });
    expect(listing.dir).toBe(join(repo, '.hammer', 'runs'));
    expect(listing.runs.map((r) => r.run_id)).toEqual([NEW, OLD]);
    expect(listing.skipped).toHaveLength(1);
    expect(listing.skipped[0]?.file).toBe(join(repo, '.hammer', 'runs', `${BROKEN}.json`));
    expect(listing.skipped[0]?.message).toContain('not valid JSON');
  });

  it('summarises each run for --json', async () => {
    const listing = await listRuns({ repo, env: TEST_KEY_ENV });
    expect(listing.runs.map(runSummary)).toEqual([
      {
        run_id: NEW,
        status: 'stable',
        reason: 'tests_pass',
        created_at: '2026-11-23T09:00:00.000Z',
        iterations: 1,
        branch: 'EngineerExternal/20261123T090000Z',
      },
      {
        run_id: OLD,
        status: 'failed',
        reason: 'max_iterations',
        created_at: '2026-11-22T14:05:01.000Z',
        iterations: 2,
        branch: null,
      },
    ]);
  });

  it('finds nothing in a repository without runs, and refuses a path that is not a directory', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'hb-runs-empty-'));
    try {
      expect(await listRuns({ repo: empty, env: TEST_KEY_ENV })).toEqual({
        dir: join(empty, '.hammer', 'runs'),
        runs: [],
        skipped: [],
      });
      const err = await listRuns({ repo: join(empty, 'nope'), env: TEST_KEY_ENV }).catch((e: unknown) => e);
      expect(isHammerError(err, 'REPO_INVALID')).toBe(true);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('showRun', () => {
  it('returns the validated state and the paths of the state file, PR_SUMMARY.md and artifacts', async () => {
    const d = await showRun({ repo, runId: NEW, env: TEST_KEY_ENV });
    expect(d.state).toEqual(newState);
    expect(d.statePath).toBe(join(repo, '.hammer', 'runs', `${NEW}.json`));
    expect(d.artifactsDir).toBe(join(repo, '.hammer', 'runs', NEW));
    expect(d.summaryPath).toBe(join(repo, '.hammer', 'runs', NEW, 'PR_SUMMARY.md'));
    expect((await showRun({ repo, runId: OLD, env: TEST_KEY_ENV })).summaryPath).toBeNull();
  });

  it('says RUN_NOT_FOUND (exit 2) with the runs list command as the next step, for unknown and malformed ids', async () => {
    for (const id of ['20261122T140501Z-nothere', '../../etc/passwd']) {
      const err = await showRun({ repo, runId: id, env: TEST_KEY_ENV }).catch((e: unknown) => e);
      expect(isHammerError(err, 'RUN_NOT_FOUND')).toBe(true);
      const rendered = renderError(err);
      expect(rendered.exitCode).toBe(2);
      expect(rendered.text).toContain(`what to do: list the runs with: hammer-box runs list --repo ${repo}`);
    }
  });

  it('quotes a repository path with spaces in that next step', async () => {
    const spaced = join(repo, "it's here");
    await mkdir(spaced);
    const err = await showRun({ repo: spaced, runId: OLD, env: TEST_KEY_ENV }).catch((e: unknown) => e);
    expect(isHammerError(err, 'RUN_NOT_FOUND') && err.hint).toBe(
      `list the runs with: hammer-box runs list --repo '${repo}/it'\\''s here'`,
    );
  });

  it('says STATE_INVALID for a state file that does not parse', async () => {
    const err = await showRun({ repo, runId: BROKEN, env: TEST_KEY_ENV }).catch((e: unknown) => e);
    expect(isHammerError(err, 'STATE_INVALID')).toBe(true);
  });
});

describe('rendering', () => {
  it('shows status and reason, branch, each iteration with its outcome, the final test and the paths', async () => {
    const text = renderRunDetails(await showRun({ repo, runId: OLD, env: TEST_KEY_ENV })).join('\n');
    expect(text).toContain('status     failed: reached the iteration limit (max_iterations)');
    expect(text).toContain('gave up after 2 iterations');
    expect(text).toContain('branch     none');
    expect(text).toMatch(/^ {3}1 {2}rejected {4}rejected; git: error: patch failed: calc\.py:3$/m);
    expect(text).toMatch(/^ {3}2 {2}unusable {4}unusable$/m);
    expect(text).toContain('final test failed (exit 1 after 1.2 s): python3 -m pytest -q');
    expect(text).toContain('  | FAILED tests/test_calc.py::test_add - assert 1 == 3');
    expect(text).toContain(`  state      ${join(repo, '.hammer', 'runs', `${OLD}.json`)}`);
    expect(text).toContain('  summary    (not written)');
  });

  it('never lets text from the model, the tests or the directive reach the terminal raw', async () => {
    const details = await showRun({ repo, runId: NEW, env: TEST_KEY_ENV });
    const text = [...renderRunDetails(details), renderRunLine(details.state)].join('\n');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text).toContain('directive  Fix add<U+202E>() please');
    expect(text).toContain('applied     fix add; tests passed (exit 0 after 1.2 s)');
    expect(text).toContain('  | 1 passed in 0.01s');
    expect(text).toContain(`  summary    ${join(repo, '.hammer', 'runs', NEW, 'PR_SUMMARY.md')}`);
  });
});

describe('what each prompt showed', () => {
  it('lists the files and regions shown with their reasons and sizes, and the prefix shared with the previous prompt', () => {
    const base = iteration(2, 'applied', { patch: 'c' });
    const state = makeState({
      iterations: [
        iteration(1, 'rejected', { patch: 'a' }),
        {
          ...base,
          prompt: { chars: 1000, artifact: 'iter-02-prompt.md', shared_prefix_chars: 850 },
          context: {
            whole_repository: false,
            items: [
              {
                path: 'tests/test_calc.py',
                reason: 'failure',
                detail: 'line 5 in the failure',
                shown: 'whole',
                chars: 120,
              },
              { path: 'calc.py', reason: 'import', shown: 'regions', lines: '10-20,4300-4340', chars: 900 },
              { path: `x${EVIL}.py`, reason: 'map', shown: 'outline', chars: 60 },
            ],
          },
        },
      ],
    });
    const text = renderRunDetails({ state, statePath: 's', summaryPath: null, artifactsDir: 'a' }).join('\n');
    expect(text).toContain('prompt 1000 chars, 85% shared with the previous prompt');
    expect(text).toContain('tests/test_calc.py (failure: line 5 in the failure; whole; 120 chars)');
    expect(text).toContain('calc.py (import; lines 10-20,4300-4340; 900 chars)');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('the runs commands through the program', () => {
  let out: string[];
  let err: string[];

  beforeAll(() => {
    out = [];
    err = [];
  });

  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
    out.length = 0;
    err.length = 0;
  });

  async function cli(...args: string[]): Promise<void> {
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err.push(String(chunk));
      return true;
    });
    await buildProgram('0.0.0-test').parseAsync(args, { from: 'user' });
  }

  it('runs list prints a header and one line per run, newest first, and the skipped file on stderr', async () => {
    await cli('runs', 'list', '--repo', repo);
    const [header, ...lines] = out.join('').trimEnd().split('\n');
    expect(header).toMatch(/^RUN ID +STATUS +REASON +ITER {2}BRANCH +DIRECTIVE$/);
    expect(lines).toHaveLength(2);
    expect(lines).toEqual(renderRunTable([newState, oldState]).slice(1));
    expect(header!.indexOf('DIRECTIVE')).toBe(lines[0]!.indexOf('Fix add'));
    expect(lines[0]).toMatch(
      new RegExp(
        `^${NEW}  stable +tests_pass +1 it  EngineerExternal/20261123T090000Z  Fix add<U\\+202E>\\(\\) please$`,
      ),
    );
    expect(lines[1]).toMatch(new RegExp(`^${OLD}  failed +max_iterations +2 it  - +Fix the add function`));
    expect(err.join('')).toBe(
      `hammer-box: skipped ${join(repo, '.hammer', 'runs', `${BROKEN}.json`)}: ${(await listRuns({ repo, env: TEST_KEY_ENV })).skipped[0]?.message}\n`,
    );
    expect(process.exitCode).toBe(0);
  });

  it('runs list --json prints the summaries', async () => {
    await cli('runs', 'list', '--repo', repo, '--json');
    const parsed: unknown = JSON.parse(out.join(''));
    expect(parsed).toEqual((await listRuns({ repo, env: TEST_KEY_ENV })).runs.map(runSummary));
  });

  it('runs show --json prints the state file as JSON, escaped for the terminal', async () => {
    await cli('runs', 'show', NEW, '--repo', repo, '--json');
    const text = out.join('');
    expect(text).not.toContain('\u001b');
    expect(JSON.parse(text)).toEqual(newState);
    expect(process.exitCode).toBe(0);
  });

  it('runs show of an unknown run rejects with RUN_NOT_FOUND, which main maps to exit 2', async () => {
    const e = await cli('runs', 'show', '20261122T140501Z-nothere', '--repo', repo).catch((x: unknown) => x);
    expect(isHammerError(e, 'RUN_NOT_FOUND')).toBe(true);
    expect(renderError(e).exitCode).toBe(2);
    expect(out).toEqual([]);
  });
});
