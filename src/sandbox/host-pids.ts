// The pids limit the engine gets for a sandbox. Under runc every process of the sandbox is one host
// task, so the engine's limit is sandbox.pids_limit. Under gVisor the host counts gVisor's own
// threads too: its kernel and file proxy (about 40 tasks idle, more under load, as the Go runtime
// starts threads for blocked system calls) and, on the ptrace platform Debian's runsc uses, about
// nine more for every process of the sandbox (measured: 38 tasks idle, 486 with 50 processes
// sleeping). A limit in process units would stop gVisor itself (its runtime exits with status 2
// when it cannot start a thread) long before the sandbox's processes reach it, so under gVisor the
// engine's limit is translated into host tasks; it still caps a fork bomb.
import type { SandboxLimits } from './types.js';

/** Host tasks gVisor's own kernel and file proxy may use beside the sandbox's processes. */
export const GVISOR_BASE_TASKS = 128;
/** Host tasks gVisor uses per process of the sandbox (about 9 measured on its ptrace platform). */
export const GVISOR_TASKS_PER_PROCESS = 10;

/** The engine's pids limit for a sandbox whose processes may number `limits.pidsLimit`. */
export function hostPidsLimit(limits: Pick<SandboxLimits, 'pidsLimit' | 'runtime'>): number {
  if (limits.runtime !== 'runsc') return limits.pidsLimit;
  return GVISOR_BASE_TASKS + GVISOR_TASKS_PER_PROCESS * limits.pidsLimit;
}
