// Fault points, for testing crash recovery and races: HAMMER_FAULT=<signal>@<point> makes the process
// send itself <signal> the first time a run reaches <point>: SIGKILL is a `kill -9` (nothing cleans
// up), SIGINT a Ctrl-C, SIGTERM a terminate, SIGSTOP a freeze until the test sends SIGCONT. Points are
// the phases (`prepare`, `baseline`, `read_state`, `generate`, `extract`, `validate`, `apply`, `test`,
// `update_state`, `deliver`, `report`: as the phase's work starts; validate, apply and test as their
// results come back from the sandbox, before they are recorded), `deliver:name` (a branch name is
// recorded in the state, its ref not made yet), `deliver:ref` (the branch exists in the user's
// repository, the state does not say so yet) and `cleanup` (the run ended or was interrupted; its
// sandbox is about to be removed). HAMMER_FAULT_CLOCK=<ISO 8601 instant> stops the run's
// clock there, so runs started apart want the same branch name. Unset, nothing happens.

const SIGNALS = ['SIGKILL', 'SIGINT', 'SIGTERM', 'SIGSTOP'] as const;
type FaultSignal = (typeof SIGNALS)[number];

let armed: { signal: FaultSignal; point: string } | undefined = parseFault(process.env['HAMMER_FAULT']);

/** `<signal>@<point>`, or undefined for anything else (a fault hook never fails a run by itself). */
export function parseFault(value: string | undefined): { signal: FaultSignal; point: string } | undefined {
  const m = /^(SIG[A-Z]+)@([a-z_]+(?::[a-z]+)?)$/.exec(value ?? '');
  if (!m || !(SIGNALS as readonly string[]).includes(m[1]!)) return undefined;
  return { signal: m[1] as FaultSignal, point: m[2]! };
}

/** Reaching `point`: when HAMMER_FAULT names it, send the signal (once). */
export function faultPoint(point: string): void {
  if (armed?.point !== point) return;
  const { signal } = armed;
  armed = undefined;
  process.kill(process.pid, signal);
}

/**
 * faultPoint for a point followed by a check of the run's abort signal: a SIGINT or SIGTERM that a
 * listener handles (the CLI's interrupt handler) has been handled when this resolves, so the check
 * right after it sees the abort.
 */
export async function faultPointHandled(point: string): Promise<void> {
  if (armed?.point !== point) return;
  const { signal } = armed;
  if ((signal !== 'SIGINT' && signal !== 'SIGTERM') || process.listenerCount(signal) === 0) return faultPoint(point);
  let done = (): void => undefined;
  const handled = new Promise<void>((resolve) => (done = resolve));
  process.once(signal, done);
  // signal watchers do not keep the event loop alive: this timer does, until the handler ran (bounded)
  const wait = setTimeout(done, 2_000);
  faultPoint(point);
  await handled;
  clearTimeout(wait);
  process.off(signal, done);
}

/** The clock HAMMER_FAULT_CLOCK stops at `value` (a UTC instant such as 2026-11-24T00:28:51Z), or undefined. */
export function faultClock(value: string | undefined): (() => Date) | undefined {
  if (!value || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value)) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return undefined;
  return () => new Date(at.getTime());
}
