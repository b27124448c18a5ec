// What a run makes of the engine it reached, before it writes anything (pure): Podman and a
// configured runtime the engine does not offer are refused; the lines the run shows once it started
// are which engine and why (with --verbose) and the runtime its sandboxes keep.
import type { Config } from '../config/schema.js';
import type { UserRepo } from '../git/index.js';
import type { LoopEmitter } from '../loop/events.js';
import { refusePodman } from '../sandbox/podman.js';
import type { EngineInfo } from '../sandbox/types.js';
import { missingRuntime, runtimeNotice } from './runtime-notice.js';

/** Where the engine is, as discovery found it: its product, and "address (why)" for people. */
export interface EngineWhere {
  platform: string | undefined;
  described: string;
}

/**
 * The engine's facts with the product discovery knows it by when the engine does not say, and the
 * notices a run shows; throws SANDBOX_HARDENING for Podman or a runtime the engine lacks.
 */
export function checkOpenedEngine(
  answered: EngineInfo,
  where: EngineWhere,
  config: Pick<Config, 'sandbox'>,
  verbose: boolean,
): { info: EngineInfo; notices: string[] } {
  const platform = answered.platform ?? where.platform;
  const info = platform ? { ...answered, platform } : answered;
  refusePodman(info);
  const missing = missingRuntime(config.sandbox.runtime, info);
  if (missing) throw missing;
  const runtime = runtimeNotice(config.sandbox.runtime, info);
  return {
    info,
    notices: [...(verbose ? [engineLine(info, where.described)] : []), ...(runtime ? [runtime] : [])],
  };
}

/** "engine: Docker 27.3.1 on Colima, linux/arm64 at unix:///… (context colima from ~/.docker/config.json)". */
export function engineLine(info: EngineInfo, where: string): string {
  const on = info.platform ? ` on ${info.platform}` : '';
  return `engine: Docker ${info.serverVersion || '(unknown version)'}${on}, ${info.os || '?'}/${info.architecture || '?'} at ${where}`;
}

/** An emitter that says `later`'s line (when it has one) once the run started and the line is known. */
export function withLaterNotice(emit: LoopEmitter, later: Promise<string | null>): LoopEmitter {
  return (event) => {
    emit(event);
    if (event.type !== 'run_started') return;
    void later.then(
      (text) => text !== null && emit({ type: 'notice', run_id: event.run_id, at: event.at, level: 'info', text }),
      () => undefined,
    );
  };
}

/** "main (1a2b3c4d5e6f)", or "commit 1a2b3c4d5e6f" for a detached base. */
export function describeRepoBase(repo: Pick<UserRepo, 'base' | 'baseCommit'>): string {
  const short = repo.baseCommit.slice(0, 12);
  return repo.base === repo.baseCommit ? `commit ${short}` : `${repo.base} (${short})`;
}

/** An emitter that follows the run's `run_started` with the notices given (one info line each). */
export function withStartNotices(emit: LoopEmitter, notices: readonly string[]): LoopEmitter {
  return (event) => {
    emit(event);
    if (event.type !== 'run_started') return;
    for (const text of notices) emit({ type: 'notice', run_id: event.run_id, at: event.at, level: 'info', text });
  };
}
