// kill -9 and Ctrl-C at every phase, including the ones that last milliseconds: the CLI sends
// itself the signal at a fault point (HAMMER_FAULT=<signal>@<point>, src/loop/fault.ts), so each
// lands exactly where it is meant to, among them `deliver:name` (the branch name is recorded, the
// branch not made yet) and `deliver:ref`, the moment the branch exists in the user's repository and
// the state does not say so yet. After each: the state parses, nothing of the
// run is left on the engine, `hammer-box resume` finishes the run, and the repository gained exactly
// one branch, holding the commits the state records. (faults.test.ts stops the slow phases from
// outside, by watching the state file.)
import { describe, expect, it } from 'vitest';
import { answerWith, FIX_PATCH } from '../helpers/python-fixture.js';
import { runCli } from './support/cli.js';
import { attack } from './support/record.js';
import { expectCanarySafe, expectNoLeftovers, expectRepoIntact, stateNow } from './support/scene.js';
import { attackFileHooks } from './support/hooks.js';

const { scene } = attackFileHooks();

/** Every point of a one-iteration run, in order (prepare, baseline, generate and test are also stopped from outside in faults.test.ts). */
const ALL_POINTS = [
  'prepare',
  'baseline',
  'read_state',
  'generate',
  'extract',
  'validate',
  'apply',
  'test',
  'update_state',
  'deliver',
  'deliver:name',
  'deliver:ref',
  'report',
];
/** `make test` runs the points where a crash is most likely to leave two branches or none; `make security` all. */
const POINTS = process.env['HAMMER_SECURITY'] === 'full' ? ALL_POINTS : ['deliver', 'deliver:ref', 'report'];
/** Points after the model's answer was recorded: resume must reuse it, never ask the model again. */
const AFTER_THE_ANSWER = new Set([
  'extract',
  'validate',
  'apply',
  'test',
  'update_state',
  'deliver',
  'deliver:name',
  'deliver:ref',
  'report',
]);
/** Where a Ctrl-C comes too late to stop the run: the branch exists, so the run finishes (exit 0). */
const AFTER_THE_BRANCH = new Set(['deliver:ref', 'report']);

describe.each([
  { how: 'kill -9', signal: 'SIGKILL' },
  { how: 'Ctrl-C', signal: 'SIGINT' },
])('$how at a fault point', ({ how, signal }) => {
  it.each(POINTS)(`in %s: the state parses, nothing is left, resume finishes with one branch`, async (point) => {
    // a second answer for a resume whose first one never arrived (a Ctrl-C as generate starts may
    // still reach the server)
    const s = await scene({
      answers: [{ answer: answerWith(FIX_PATCH) }, { answer: answerWith(FIX_PATCH) }],
      maxIterations: 2,
      env: { HAMMER_FAULT: `${signal}@${point}` },
    });
    const stopped = await s.run();
    const after = await stateNow(s);
    const late = signal === 'SIGINT' && AFTER_THE_BRANCH.has(point);
    await attack(
      `${how} at ${point} (fault point)`,
      late
        ? 'too late to stop: the run finishes with its one branch'
        : `${signal === 'SIGINT' ? 'exit 130, interrupted' : 'killed'}; state parses; nothing left; resume finishes with one branch`,
      async () => {
        expect(after, 'the run wrote a state file').not.toBeNull();
        const runId = after!.run_id;
        if (late) {
          expect(stopped.code, stopped.stderr.slice(-600)).toBe(0);
          expect(after!.status).toBe('stable');
        } else if (signal === 'SIGINT') {
          expect(stopped.code, stopped.stderr.slice(-600)).toBe(130);
          expect(after!.status).toBe('interrupted');
          expect(stopped.stderr).toContain(`hammer-box resume ${runId}`);
        } else {
          expect(stopped.signal, stopped.stderr.slice(-600)).toBe('SIGKILL');
        }
        // a SIGKILL leaves the container for resume (or gc) to remove; a Ctrl-C removes it itself
        if (signal === 'SIGINT') await expectNoLeftovers(runId);
        // resume without the fault (it would stop itself at the same point)
        const { HAMMER_FAULT: _fault, ...env } = s.env;
        const resumed = late
          ? null
          : await runCli(['resume', runId, '--repo', s.fx.repo.path, '--config', s.configFile], env);
        if (resumed) expect(resumed.code, resumed.stderr.slice(-800)).toBe(0);
        const final = (await stateNow(s))!;
        expect(final.status).toBe('stable');
        if (AFTER_THE_ANSWER.has(point))
          expect(s.server.chatRequests(), 'resume reused the recorded answer').toHaveLength(1);
        expect(final.phases.report?.status).toBe('done');
        await expectNoLeftovers(runId);
        const branches = await expectRepoIntact(s);
        expect(branches, 'exactly one new branch').toHaveLength(1);
        // the branch is the one the state names, and holds the commit the iteration recorded
        const tip = (await s.fx.repo.git(['rev-parse', `refs/heads/${final.branch!.name}`])).trim();
        expect(tip).toBe(final.branch!.commit);
        const recorded = final.iterations.find((it) => it.outcome === 'applied')?.apply?.commit;
        expect(tip, 'the branch holds the commit the state recorded for the iteration').toBe(recorded);
        await expectCanarySafe(s, {
          result: {
            ...stopped,
            stdout: `${stopped.stdout}${resumed?.stdout ?? ''}`,
            stderr: `${stopped.stderr}${resumed?.stderr ?? ''}`,
          },
        });
        const start = late
          ? `exit 0, stable`
          : signal === 'SIGINT'
            ? `exit 130, ${after!.status}`
            : `killed, state ${after!.status}`;
        return `${start}; ${resumed ? 'resume: ' : ''}${final.status}, one branch at the recorded commit, nothing left`;
      },
    );
  });
});
