// `[sandbox] runtime` as a sandbox gets it: "auto" is gVisor when the engine offers it (a runtime, or
// a RuntimeClass whose handler is runsc), else the default; any other value is used exactly (and
// verified on every sandbox).
import type { EngineInfo, SandboxEngine } from '../sandbox/types.js';

/** The OCI runtime name gVisor registers under. */
export const GVISOR = 'runsc';

/** The value that picks gVisor when the engine offers it. */
export const AUTO_RUNTIME = 'auto';

/** The runtime for `configured`, given what the engine offers ("" is the engine's default). */
export function pickRuntime(configured: string, info: Pick<EngineInfo, 'runtimes' | 'gvisorRuntime'>): string {
  if (configured !== AUTO_RUNTIME) return configured;
  return info.gvisorRuntime ?? (info.runtimes.includes(GVISOR) ? GVISOR : '');
}

/** Resolve `configured` against the engine; asks the engine only for "auto". */
export async function resolveRuntime(
  configured: string,
  engine: Pick<SandboxEngine, 'info'>,
  signal?: AbortSignal,
): Promise<string> {
  if (configured !== AUTO_RUNTIME) return configured;
  return pickRuntime(configured, await engine.info(signal ? { signal } : {}));
}
