// Fail fast: the model server and the model are checked while the setup, the sandbox and the
// baseline run, and a failed check stops that work at once instead of after it.
import type { HammerError } from '../errors.js';
import type { ModelProvider } from '../llm/index.js';

/** A model check running beside the sandbox work. */
export interface ModelGate {
  /** Aborts when the run's own signal does, or when the check failed (its reason is the check's error). */
  readonly signal: AbortSignal;
  /** The check's error once it failed, else null. */
  failure(): HammerError | null;
  /** Wait for the check; throws its error when it failed. */
  ready(): Promise<void>;
  /** Stop a check still running and let go of the run's signal. */
  dispose(): void;
}

/** Start checking `provider` (when `enabled`) and return the signal the sandbox work should obey. */
export function startModelGate(provider: ModelProvider, outer: AbortSignal | undefined, enabled: boolean): ModelGate {
  const work = new AbortController();
  const stopCheck = new AbortController();
  const onOuter = (): void => work.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  let failed: HammerError | null = null;
  const done = enabled
    ? provider.check({ signal: AbortSignal.any([work.signal, stopCheck.signal]) }).then(
        (result) => {
          if (result.error === undefined || work.signal.aborted) return;
          failed = result.error;
          work.abort(result.error);
        },
        () => undefined, // aborted: the run's own signal tells why
      )
    : Promise.resolve();
  return {
    signal: work.signal,
    failure: () => failed,
    ready: async () => {
      await done;
      if (failed !== null) throw failed;
    },
    dispose: () => {
      stopCheck.abort();
      outer?.removeEventListener('abort', onOuter);
    },
  };
}
