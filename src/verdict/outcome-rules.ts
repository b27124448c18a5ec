// What each outcome means for whoever reads it: the exit code, the risk line of PR_SUMMARY.md, the
// monitor's badge colour, and whether the pull request opens ready or as a draft. The one table;
// every front end looks its outcome up here.
import type { RunStatus } from '../state/run-state.js';

/** The risk line's word: pass only for stable. */
export type RiskLevel = 'pass' | 'partial' | 'untested' | 'unknown' | 'fail';

/** The monitor's badge colours (each a class of monitor.css). */
export type BadgeColour = 'green' | 'orange' | 'purple' | 'grey' | 'red' | 'yellow' | 'blue';

/** What an outcome means downstream. */
export interface OutcomeRule {
  /** The exit code of `run`, `resume` and `replay` when the run ends so. */
  exitCode: number;
  risk: RiskLevel;
  colour: BadgeColour;
  /** The pull request opens ready for review (else as a draft, its title starting "WIP: "). */
  ready: boolean;
  /** What the outcome says, in a few words. */
  meaning: string;
}

/** Every outcome's rule. Only `stable` exits 0, says "pass", is green, and opens a ready pull request. */
export const OUTCOME_RULES: Readonly<Record<RunStatus, OutcomeRule>> = {
  stable: {
    exitCode: 0,
    risk: 'pass',
    colour: 'green',
    ready: true,
    meaning: 'every targeted test passes and nothing regressed',
  },
  partial: {
    exitCode: 4,
    risk: 'partial',
    colour: 'orange',
    ready: false,
    meaning: 'some targeted tests were fixed, none regressed, others still fail',
  },
  untested: {
    exitCode: 5,
    risk: 'untested',
    colour: 'purple',
    ready: false,
    meaning: 'the repository has no tests to run: the change stands on its gates alone',
  },
  unknown: {
    exitCode: 6,
    risk: 'unknown',
    colour: 'grey',
    ready: false,
    meaning: "the last test run's result is unknown (it timed out, or its output could not be read)",
  },
  failed: {
    exitCode: 1,
    risk: 'fail',
    colour: 'red',
    ready: false,
    meaning: 'no targeted test passes, or a test regressed',
  },
  error: { exitCode: 1, risk: 'fail', colour: 'red', ready: false, meaning: 'stopped on an error' },
  interrupted: { exitCode: 130, risk: 'unknown', colour: 'yellow', ready: false, meaning: 'interrupted' },
  running: { exitCode: 1, risk: 'unknown', colour: 'blue', ready: false, meaning: 'still running' },
};
