// The trajectory's wall-time bound as a signal: a model request gets what is left of
// `agent.max_seconds` and is aborted when it runs out (the run's own signal still aborts it too).

/** A signal that fires at the deadline or with the run's signal, and whether it was the deadline. */
export interface Deadline {
  signal: AbortSignal;
  /** The deadline fired (not the run's signal): the trajectory's time ran out. */
  expired(): boolean;
}

/** The deadline `ms` from now, joined with the run's signal when there is one. */
export function deadline(ms: number, run?: AbortSignal): Deadline {
  const timer = AbortSignal.timeout(Math.max(1, Math.min(Math.ceil(ms), 2 ** 31 - 1)));
  return {
    signal: run === undefined ? timer : AbortSignal.any([run, timer]),
    expired: () => timer.aborted && run?.aborted !== true,
  };
}
