// Failing tests first: iteration time on a repository whose whole suite takes over 20 s and whose
// failing test takes well under 1 s, with focus on (the failing test alone) against tools.focus =
// false (the whole suite every iteration), in the same bench run. Real runs through run().
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from '../src/api/run.js';
import { ITERATION_PHASES, type Iteration, type RunState } from '../src/state/run-state.js';
import { createDockerClient, DockerSandboxEngine } from '../src/sandbox/index.js';
import { benchEnv, counterPatch, makeGitRepo, pythonProjectFiles, removeDir, startScriptedOllama } from './fixtures.js';
import { heading, printFigure } from './lib.js';

const ITERATIONS = 2;
const SLOW_TESTS = 22;
const MODEL = 'bench-model';
const TEST_COMMAND = 'python3 -m pytest -q';

/** 22 tests of a second each (the slow suite) and one failing test that takes none. */
function slowSuiteFiles(): Record<string, string> {
  const slow = Array.from(
    { length: SLOW_TESTS },
    (_, k) => `def test_slow_${k}():\n    time.sleep(1)\n    assert True\n`,
  ).join('\n\n');
  return {
    ...pythonProjectFiles(),
    'tests/test_slow.py': `import time\n\n\n${slow}`,
    'tests/test_value.py': 'from calc.counter import value\n\n\ndef test_value_is_large():\n    assert value() > 100\n',
  };
}

/** Run the failing-first benchmark and print its figures. */
export async function benchFocus(): Promise<void> {
  heading(
    `focus: failing tests first (python, whole suite ${SLOW_TESTS} x 1 s, one failing test; ${ITERATIONS} iterations that fix nothing)`,
  );
  const repo = await makeGitRepo(slowSuiteFiles());
  const server = await startScriptedOllama((k) => `Bump it.\n\n\`\`\`diff\n${counterPatch(k)}\`\`\`\n`, MODEL);
  const runIds: string[] = [];
  try {
    const directive = join(repo, '..', `hb-bench-focus-${process.pid}.md`);
    await writeFile(directive, 'Make test_value_is_large pass.\n');
    const states: Record<'on' | 'off', RunState | undefined> = { on: undefined, off: undefined };
    for (const mode of ['on', 'off'] as const) {
      server.reset();
      const { state } = await run({
        repo,
        directive,
        env: benchEnv(),
        flags: {
          tools: { test_command: TEST_COMMAND, focus: mode === 'on' },
          loop: { max_iterations: ITERATIONS },
          model: { provider: 'ollama', name: MODEL, url: server.url },
        },
      });
      runIds.push(state.run_id);
      states[mode] = state;
    }
    await removeDir(directive);
    const iterations = (s: RunState | undefined): Iteration[] => (s?.iterations ?? []).filter((i) => i.test !== null);
    const wall = (it: Iteration): number => ITERATION_PHASES.reduce((t, p) => t + (it.phases[p]?.duration_ms ?? 0), 0);
    const on = iterations(states.on);
    const off = iterations(states.off);
    for (const it of on) process.stdout.write(`  focus on, iteration ${it.n}: \`${it.test?.command}\`\n`);
    printFigure({
      name: 'iteration wall (phases), failing test first',
      samples: on.map(wall),
      reference: { name: 'the whole suite every iteration (tools.focus = false)', samples: off.map(wall) },
    });
    printFigure({
      name: 'test command alone, failing test first',
      samples: on.map((i) => i.test!.duration_ms),
      reference: { name: 'the whole suite', samples: off.map((i) => i.test!.duration_ms) },
    });
    printFigure({
      name: 'for context: the baseline (whole suite)',
      samples: [states.on?.baseline?.duration_ms ?? NaN],
    });
  } finally {
    await server.close();
    await removeDir(repo);
    await new DockerSandboxEngine({ docker: createDockerClient(benchEnv()) }).gc({ runIds });
  }
}
