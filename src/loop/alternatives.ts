// When the chosen project's tests pass at baseline on a directive that asks for a fix, the tests
// that fail are probably another project's (a Python package beside a root package.json): each
// other project detection found is set up and its tests run before the model is asked, and the
// first whose tests fail becomes the run's project.
import { isHammerError } from '../errors.js';
import type { UserRepo } from '../git/index.js';
import type { RunState, TestRecord } from '../state/run-state.js';
import type { RunRecorder } from './phase-runner.js';
import { prepare, runTests, type Prepared } from './prepare.js';
import type { AlternativeEnvironment, RunDeps, RunRequest } from './run-types.js';
import { artifactNames } from '../state/artifact-names.js';
import { testPassed } from './stop-conditions.js';
import { testStatus } from '../verdict/index.js';

/** What the run goes on with after the alternatives were tried: the same, or the project it switched to. */
export interface AfterAlternatives {
  req: RunRequest;
  prep: Prepared;
}

/**
 * Try each alternative in turn: its image, a sandbox of its own, its test command. The first whose
 * tests fail replaces the run's environment, image, baseline and sandbox (the old sandbox is
 * removed); the others' sandboxes are removed as soon as their tests have run. Every step is said
 * on the run's notices.
 */
export async function tryAlternatives(
  rec: RunRecorder,
  deps: RunDeps,
  req: RunRequest,
  prep: Prepared,
  userRepo: UserRepo,
  alternatives: readonly AlternativeEnvironment[],
  track: (sandbox: Prepared['sandbox']) => void,
): Promise<AfterAlternatives> {
  const notice = (level: 'info' | 'warning', text: string): void =>
    deps.emit({ type: 'notice', run_id: rec.state.run_id, at: deps.now().toISOString(), level, text });
  const current = rec.state.environment?.toolchain ?? req.config.sandbox.toolchain;
  for (const [i, alt] of alternatives.entries()) {
    notice('info', `before asking the model, trying the tests of another project: ${alt.environment.line}`);
    const altReq: RunRequest = {
      ...req,
      testCommand: alt.testCommand,
      workbench: prep.workbench,
      config: {
        ...req.config,
        sandbox: { ...req.config.sandbox, toolchain: alt.toolchain },
        tools: { ...req.config.tools, test_command: alt.testCommand },
      },
      environment: alt.environment,
    };
    let made: Prepared['sandbox'] | undefined;
    let tried: {
      image: Awaited<ReturnType<AlternativeEnvironment['resolveImage']>>;
      prep: Prepared;
      baseline: TestRecord;
    };
    try {
      const image = await alt.resolveImage(deps.signal);
      const altPrep = await prepare(rec.state.run_id, altReq, deps, userRepo, image, (p) => {
        if (p.sandbox) track((made = p.sandbox));
      });
      const baseline = await runTests(rec, deps, altPrep.repo, altReq, null, artifactNames.alternativeTestLog(i + 1));
      tried = { image, prep: altPrep, baseline };
    } catch (err) {
      // another project that cannot be set up or run is no reason to stop this run
      if (deps.signal?.aborted || isHammerError(err, 'ABORTED')) throw err;
      await made?.destroy().catch(() => undefined);
      const what = isHammerError(err) ? `${err.code}: ${err.message}` : String(err);
      notice('warning', `could not try ${alt.toolchain}'s tests: ${what.split('\n')[0]!.slice(0, 300)}`);
      continue;
    }
    const { image, prep: altPrep, baseline } = tried;
    const verdict = alternativeVerdict(baseline);
    if (verdict !== 'switch') {
      notice(
        'info',
        verdict === 'passes'
          ? `${alt.toolchain}'s tests pass at baseline too (${testStatus(baseline)})`
          : `${alt.toolchain}'s test command fails at baseline without naming a failing test (${testStatus(baseline)}): not switching to it`,
      );
      await altPrep.sandbox.destroy();
      continue;
    }
    notice(
      'warning',
      `switching to ${alt.toolchain}: its tests fail at baseline (${testStatus(baseline)}), ${current}'s pass; the run goes on with ${alt.testCommand}`,
    );
    await prep.sandbox.destroy().catch(() => undefined);
    await rec.update((s) => switched(s, alt, image, baseline, current));
    return { req: altReq, prep: altPrep };
  }
  return { req, prep };
}

/**
 * What another project's baseline says: its tests pass; they fail and the output names failing
 * tests (switch to it); or the command failed without naming any (it could not run: a missing
 * runner, a crash, a broken setup), which is no reason to leave the project the run has.
 */
export function alternativeVerdict(baseline: TestRecord): 'passes' | 'switch' | 'unclear' {
  if (testPassed(baseline)) return 'passes';
  return (baseline.parsed?.failing.length ?? 0) > 0 ? 'switch' : 'unclear';
}

/** The state after switching to `alt`: its image, environment (saying why), baseline, and the toolchain and test command resume takes. */
function switched(
  s: RunState,
  alt: AlternativeEnvironment,
  image: Awaited<ReturnType<AlternativeEnvironment['resolveImage']>>,
  baseline: TestRecord,
  from: string,
): RunState {
  const config = s.config as Record<string, Record<string, unknown> | undefined>;
  return {
    ...s,
    image,
    environment: {
      ...alt.environment,
      line: `${alt.environment.line}; chosen at baseline: its tests fail, ${from}'s pass`,
    },
    baseline,
    config: {
      ...s.config,
      sandbox: { ...config['sandbox'], toolchain: alt.toolchain },
      tools: { ...config['tools'], test_command: alt.testCommand },
    },
  };
}
