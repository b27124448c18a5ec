// The argv that runs one runner op in the sandbox: sh -c <script> hammer-runner <op> [args].
import { HammerError } from '../errors.js';
import { runnerScript } from './script.js';

/** Every op the runner performs. */
export const RUNNER_OPS = [
  'init',
  'apply-check',
  'apply',
  'commit',
  'test',
  'diff',
  'status',
  'tree',
  'reset',
  'step',
  'candidate',
  'restore',
  'inspect',
] as const;

/** One runner op name. */
export type RunnerOp = (typeof RUNNER_OPS)[number];

/** Where the host puts patch files, relative to the workspace: inside .git, so never part of the tree. */
export const PATCH_DIR = '.git/hammer';

/** The runner argv for an exec (no shell on the host side; the script travels in argv). */
export function runnerArgv(op: RunnerOp, ...args: string[]): string[] {
  for (const arg of args) {
    // An argv entry cannot hold NUL; refuse here instead of letting the engine fail obscurely.
    if (arg.includes('\0')) throw new HammerError('INTERNAL', `runner ${op}: an argument holds a NUL byte`);
  }
  return ['sh', '-c', runnerScript(), 'hammer-runner', op, ...args];
}

/** The workspace-relative path for a patch file called `name` (a plain file name). */
export function patchPath(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new HammerError('INTERNAL', `invalid patch file name: ${JSON.stringify(name)}`);
  }
  return `${PATCH_DIR}/${name}`;
}
