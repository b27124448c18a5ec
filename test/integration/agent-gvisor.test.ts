// Agent mode under gVisor (`[sandbox] runtime = "runsc"`), as `make test GVISOR=1` runs the other
// sandbox tests there: bash, every editor command (view of a file and of a directory, create,
// insert, str_replace, undo_edit of an edit and of a create), the editor's refusal of a symbolic
// link, and submit, on the python fixture through to a stable run. Debian's runsc 20221219 refuses
// coreutils' statx, so nothing the editor does may rest on `stat` or `ls -l`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import type { RunState } from '../../src/state/run-state.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, trajectoryScript, type ModelServer } from '../helpers/model-server.js';
import { createToolchainFixture } from '../fixtures/toolchains/fixtures.js';
import { modelFlags, testEnv } from './run-support.js';
import { testEngine } from './sandbox-fixtures.js';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ script: [] });
});
afterAll(async () => {
  await server?.close();
});

/** Whether the gVisor test runs: HAMMER_GVISOR=off leaves it out; on: the engine must offer runsc. */
async function gvisor(): Promise<boolean> {
  if (process.env['HAMMER_GVISOR'] === 'off') return false;
  const info = (await testEngine().docker.info()) as { Runtimes?: Record<string, unknown> };
  const offered = Object.keys(info.Runtimes ?? {}).includes('runsc');
  if (process.env['HAMMER_GVISOR'] === 'on') expect(offered, "the engine offers runsc ('make gvisor')").toBe(true);
  return offered;
}

function explain(state: RunState): string {
  return JSON.stringify(
    {
      detail: state.reason_detail,
      errors: state.errors,
      steps: state.iterations.map((it) =>
        it.trajectory?.steps.map((s) => `${s.action} → ${s.outcome}: ${s.observation.slice(0, 300)}`),
      ),
    },
    null,
    2,
  );
}

describe('agent mode under gVisor', () => {
  it.skipIf(process.env['HAMMER_GVISOR'] === 'off')(
    'python: bash, every editor command, a link refused, submit; stable',
    async () => {
      if (!(await gvisor())) return;
      await toolchainImage('python');
      const fx = await createToolchainFixture('python', 'agent-mode');
      try {
        server.enqueue(
          ...trajectoryScript(
            [
              { bash: 'grep -n result calc.py' },
              { edit: { command: 'view', path: 'calc.py' } },
              { edit: { command: 'view', path: 'vendor' } },
              { edit: { command: 'create', path: 'notes/todo.txt', file_text: 'one\n' } },
              { edit: { command: 'insert', path: 'notes/todo.txt', insert_line: 1, new_str: 'two' } },
              { bash: 'cat notes/todo.txt' },
              { edit: { command: 'undo_edit', path: 'notes/todo.txt' } },
              { edit: { command: 'undo_edit', path: 'notes/todo.txt' } },
              { bash: 'test -e notes/todo.txt && echo there || echo gone' },
              { bash: 'ln -s calc.py alias.py' },
              {
                edit: {
                  command: 'str_replace',
                  path: 'alias.py',
                  old_str: 'result -= item',
                  new_str: 'result += item',
                },
              },
              { bash: 'rm alias.py' },
              {
                edit: { command: 'str_replace', path: 'calc.py', old_str: 'result -= item', new_str: 'result += item' },
              },
              { bash: 'python3 -m pytest -q test_calc.py' },
              { submit: true },
            ],
            'native',
          ),
        );
        const flags = modelFlags(server, { maxIterations: 1 });
        const { state } = await run({
          repo: fx.repo.path,
          directive: fx.directive,
          env: testEnv(),
          flags: { ...flags, loop: { ...(flags['loop'] as object), mode: 'agent' }, sandbox: { runtime: 'runsc' } },
        });
        expect(state.status, explain(state)).toBe('stable');
        expect((state.config['sandbox'] as { runtime: string }).runtime).toBe('runsc');
        const steps = state.iterations[0]!.trajectory!.steps;
        expect(
          steps.map((s) => s.outcome),
          explain(state),
        ).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'refused', 'ok', 'ok', 'ok', 'ok']);
        expect(steps[0]!.observation).toMatch(/7: +result -= item/);
        expect(steps[1]!.observation).toMatch(/7\t +result -= item/);
        expect(steps[2]!.observation).toContain('vendor/greet/greet.py');
        expect(steps[5]!.observation).toMatch(/^one\ntwo\n/);
        expect(steps[8]!.observation).toContain('gone');
        expect(steps[10]!.observation).toContain('symbolic link');
        expect(steps[13]!.observation).toContain('2 passed');
        expect(state.iterations[0]!.patch!.files).toEqual([{ path: 'calc.py', status: 'modified' }]);
        expect(state.branch).not.toBeNull();
      } finally {
        await fx.cleanup();
      }
    },
    600_000,
  );
});
