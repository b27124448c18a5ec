// Bringing a sandbox back to a known state: every process of the sandbox user killed and gone (its
// pids free again), within a bound. Used after a command timed out or was interrupted, and for
// daemons a finished command left. The killer is one sh that starts no process while it works: a
// fork bomb may hold every pid of the sandbox's limit until it is dead.
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { HammerError, throwIfAborted } from '../errors.js';
import { isNotFound, sandboxFailure, statusCode } from './docker-errors.js';
import { sleep, streamEnd } from './stream-end.js';

/** How long the killer waits for the killed processes to be gone before it gives up. */
export const KILL_SETTLE_SECONDS = 20;

/** The exit status of the killer when processes of its user outlived KILL_SETTLE_SECONDS. */
const UNSETTLED = 3;
/** The exit status the engine gives an exec whose process could not be started. */
const NOT_STARTED = 126;

/**
 * POSIX sh with builtins only: kill -KILL -1 (every process of this uid but this shell and PID 1;
 * on Docker PID 1 and the keeper run as other users, on Kubernetes the keeper is PID 1, which no
 * signal from inside its namespace reaches) until no other process of this uid is left, zombies included
 * (their pids are free only once PID 1 reaped them). Exit 0 when none is left, 3 when some still
 * are after KILL_SETTLE_SECONDS, 2 when it runs as root or cannot read /proc.
 */
export const KILL_ALL_SCRIPT = `u=
{ while read -r k v _; do [ "$k" = Uid: ] && u=$v && break; done </proc/self/status; } 2>/dev/null
case $u in '' | 0 | *[!0-9]*) exit 2 ;; esac
{ read -r t _ </proc/uptime; } 2>/dev/null || exit 2
end=$((\${t%.*} + ${KILL_SETTLE_SECONDS}))
while :; do
  kill -KILL -1 2>/dev/null
  left=
  for d in /proc/[0-9]*; do
    case \${d#/proc/} in "$$" | 1) continue ;; esac
    o=
    { while read -r k v _; do [ "$k" = Uid: ] && o=$v && break; done <"$d/status"; } 2>/dev/null
    [ "$o" = "$u" ] && left=1 && break
  done
  [ -z "$left" ] && exit 0
  { read -r t _ </proc/uptime; } 2>/dev/null
  [ "\${t%.*}" -lt "$end" ] || exit ${UNSETTLED}
done
`;

/** What an exec needs to know about its sandbox. */
export interface ExecTarget {
  container: Dockerode.Container;
  /** "uid:gid" every command runs as. */
  user: string;
}

const ExecStateSchema = z.object({ Running: z.boolean(), ExitCode: z.number().int().nullable() });

/** An exec's running flag and exit code, as the engine reports them. */
export async function execState(exec: Dockerode.Exec): Promise<{ running: boolean; exitCode: number | null }> {
  const s = ExecStateSchema.parse(await exec.inspect());
  return { running: s.Running, exitCode: s.ExitCode };
}

const StatsSchema = z.object({
  pids_stats: z.object({ current: z.number().int().nullish(), limit: z.number().int().nullish() }).nullish(),
});

/** How many pids the container uses and its limit, from the engine (null when it cannot say). */
export async function pidsInUse(container: Dockerode.Container): Promise<{ current: number; limit: number } | null> {
  const stats: unknown = await container.stats({ stream: false, 'one-shot': true }).catch(() => null);
  const parsed = StatsSchema.safeParse(stats);
  const p = parsed.success ? parsed.data.pids_stats : null;
  if (typeof p?.current !== 'number' || typeof p.limit !== 'number' || p.limit <= 0) return null;
  return { current: p.current, limit: p.limit };
}

/** True when the engine says the container has (all but) no pid left under its limit. */
export async function pidsFull(container: Dockerode.Container): Promise<{ limit: number } | null> {
  const p = await pidsInUse(container);
  return p && p.current >= p.limit - 2 ? { limit: p.limit } : null;
}

/** The error for a sandbox whose pids limit stays full: nothing can be started in it. */
export function pidsFullError(what: string, limit: number | null): HammerError {
  return new HammerError(
    'SANDBOX_PIDS_FULL',
    `${what}: every pid of the sandbox's limit${limit === null ? '' : ` (${limit})`} is taken`,
    {
      hint: 'processes the tests started hold sandbox.pids_limit and did not go away when killed; raise sandbox.pids_limit if the tests need more processes',
    },
  );
}

/** The error for processes that outlived their kill by `seconds`: the sandbox is not usable any more. */
export function unsettledError(seconds: number): HammerError {
  return new HammerError(
    'SANDBOX_PIDS_FULL',
    `processes of the sandbox were still there ${seconds} s after being killed`,
    {
      hint: 'a process the tests started cannot be killed; the sandbox is not usable any more',
    },
  );
}

/**
 * Kill every process of the sandbox user (daemons included) and wait until all are gone, so the
 * next command can start processes again. PID 1 and the keeper run as another user and stay.
 * Throws SANDBOX_PIDS_FULL when no killer could be started (the limit stays full) or the killed
 * processes were still there after KILL_SETTLE_SECONDS.
 */
export async function killAllProcesses(target: ExecTarget, signal?: AbortSignal): Promise<void> {
  let lastError: unknown;
  let notStarted = 0;
  // A fork bomb can hold every pid of the limit; retry until our one-process killer gets a slot.
  for (let attempt = 0; attempt < 40; attempt++) {
    throwIfAborted(signal, 'killing the sandbox processes');
    let exitCode: number | null = null;
    try {
      const exec = await target.container.exec({
        Cmd: ['sh', '-c', KILL_ALL_SCRIPT],
        User: target.user,
        WorkingDir: '/',
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
      });
      const stream = await exec.start({ hijack: true, stdin: false });
      stream.resume();
      await streamEnd(stream);
      stream.destroy();
      ({ exitCode } = await execState(exec));
    } catch (err) {
      if (isNotFound(err) || statusCode(err) === 409) throw sandboxFailure(err, 'killing the sandbox processes');
      lastError = err;
    }
    if (exitCode === 0) return;
    if (exitCode === 2)
      throw new HammerError('SANDBOX_BROKEN', 'the sandbox cannot kill its processes: /proc is unreadable in it');
    if (exitCode === UNSETTLED) throw unsettledError(KILL_SETTLE_SECONDS);
    if (exitCode === NOT_STARTED) notStarted++;
    await sleep(Math.min(25 * (attempt + 1), 250));
  }
  const full = notStarted > 0 ? await pidsFull(target.container) : null;
  if (full) throw pidsFullError('could not start a process to kill the sandbox processes', full.limit);
  throw new HammerError('SANDBOX_BROKEN', 'could not kill the sandbox processes', { cause: lastError });
}
