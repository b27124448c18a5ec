// The test output the model is shown (real engine, real git, a scripted model server): a node
// repository whose 463-line TAP output (node --test-reporter=tap; Node 23+ defaults to spec) fails at test 8 (line ~110). The first prompt holds the
// whole failure block between the head and the tail, markers with true counts, and the failing test
// listed by name and place; the state records it once, cut the same way.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import type { RunOutcome } from '../../src/loop/run-types.js';
import { createFixtureRepo, type FixtureRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { modelFlags, promptText, testEnv } from './run-support.js';

const ROWS_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';

const parse = (row) => row.split(',').map((cell) => cell.trim());

for (let i = 1; i <= 70; i++) {
  test(\`parses row \${i}\`, () => {
    console.log(\`row \${i}: parsing\`);
    const row = i === 8 ? \`a,"b,c",\${i}\` : \`a,b,\${i}\`;
    assert.deepEqual(parse(row), ['a', i === 8 ? 'b,c' : 'b', String(i)]);
  });
}
`;

describe('the prompt shows the failing part of long test output', () => {
  let repo: FixtureRepo;
  let server: ModelServer;
  let outcome: RunOutcome;
  let dir: string;

  beforeAll(async () => {
    await toolchainImage('node');
    repo = await createFixtureRepo({
      files: {
        'package.json':
          '{ "name": "rows", "version": "1.0.0", "type": "module", "scripts": { "test": "node --test --test-reporter=tap" } }\n',
        'test/rows.test.js': ROWS_TEST,
      },
    });
    dir = await mkdtemp(join(tmpdir(), 'hb-directive-'));
    const directive = join(dir, 'directive.md');
    await writeFile(directive, 'Fix the CSV row parser: quoted cells may hold commas.\n');
    server = await startModelServer({ script: [{ answer: 'NO_CHANGES' }] });
    outcome = await run({
      repo: repo.path,
      directive,
      env: testEnv(),
      flags: modelFlags(server, { maxIterations: 1 }),
    });
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await repo?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps `not ok 8` and its diagnostics whole between the head and the tail, with true counts', () => {
    const baseline = outcome.state.baseline;
    expect(baseline?.exit_code).not.toBe(0);
    const prompt = promptText(server.chatRequests()[0]);
    expect(prompt).toContain('not ok 8 - parses row 8');
    expect(prompt).toMatch(/location: '(?:file:\/\/)?\/workspace\/test\/rows\.test\.js:7:3'/);
    expect(prompt).toContain("'b,c',");
    expect(prompt).toMatch(/Failing tests \(1\):\n- parses row 8 \(\/workspace\/test\/rows\.test\.js:7\)/);
    expect(prompt).toMatch(/Counts \(node\): 1 failed, 69 passed/);
    // the excerpt as recorded, shown once: every marker's count plus the kept lines is the whole output
    const excerpt = baseline?.stdout_tail ?? '';
    expect(prompt).toContain(excerpt);
    const lines = excerpt.split('\n');
    const markers = lines.map((l) => Number(/^\[\.\.\. (\d+) lines omitted \.\.\.\]$/.exec(l)?.[1] ?? 0));
    const total = lines.length - markers.filter((n) => n > 0).length + markers.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(400);
    expect(markers.filter((n) => n > 0).length).toBeGreaterThan(0);
    expect(baseline?.parsed?.failing.map((f) => f.id)).toEqual(['parses row 8']);
  });
});
