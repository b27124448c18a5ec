// Fault points, for testing crash recovery: HAMMER_FAULT=<signal>@<point> makes the process send
// itself <signal> the first time a run reaches <point>: SIGKILL is a `kill -9` (nothing cleans up),
// SIGINT a Ctrl-C, SIGTERM a terminate. Points are the phases (`prepare`, `baseline`, `read_state`,
// `generate`, `extract`, `validate`, `apply`, `test`, `update_state`, `deliver`, `report`: as the
// phase's work starts; validate, apply and test as their results come back from the sandbox, before
// they are recorded) and `deliver:ref` (the branch exists in the user's repository, the state does
// not say so yet). Unset, nothing happens.

const SIGNALS = ['SIGKILL', 'SIGINT', 'SIGTERM'] as const;
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
