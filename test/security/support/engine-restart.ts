// Restarting the local Docker daemon under a run: stop dockerd with SIGTERM and wait until it is
// gone, then start it again with scripts/engine.sh (as `make engine` does) and wait until it answers.
import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, waitFor } from './cli.js';

const exec = promisify(execFile);

/** The pid of the running dockerd, or null when none runs. */
export async function dockerdPid(): Promise<number | null> {
  const { stdout } = await exec('pgrep', ['-x', 'dockerd']).catch(() => ({ stdout: '' }));
  const pids = stdout.split('\n').filter(Boolean).map(Number);
  if (pids.length > 1)
    throw new Error(`more than one dockerd runs (${pids.join(', ')}): refusing to guess which to restart`);
  return pids[0] ?? null;
}

/**
 * True while `pid` is in the process table. A zombie counts: engine.sh asks `pgrep -x dockerd`,
 * which lists zombies too, and would take an unreaped dockerd for a running one.
 */
async function inProcessTable(pid: number): Promise<boolean> {
  return (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null)) !== null;
}

/** True when `docker version` gets an answer from the server. */
export async function engineAnswers(): Promise<boolean> {
  return exec('docker', ['version', '--format', '{{.Server.Version}}'], { timeout: 10_000 }).then(
    () => true,
    () => false,
  );
}

/** SIGTERM dockerd and wait until it has exited and been reaped (containerd may stay); returns the old pid. */
export async function stopEngine(timeoutMs = 180_000): Promise<number> {
  const pid = await dockerdPid();
  if (pid === null) throw new Error('no dockerd runs: nothing to restart');
  process.kill(pid, 'SIGTERM');
  await waitFor(async () => !(await inProcessTable(pid)), timeoutMs, `dockerd (pid ${pid}) to exit`);
  return pid;
}

/**
 * Start the engine with scripts/engine.sh (idempotent when it already answers) and wait until
 * `docker version` answers. The script runs in its own session, so the dockerd it leaves behind is
 * not in the test runner's process group.
 */
export async function startEngine(timeoutMs = 120_000): Promise<string> {
  const child = spawn('bash', [join(ROOT, 'scripts', 'engine.sh')], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
  // 'exit', not 'close': a daemon that kept a copy of the pipes must not hold us up
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  child.stdout.destroy();
  child.stderr.destroy();
  if (code !== 0) throw new Error(`scripts/engine.sh exited ${code}: ${output.trim().slice(-1500)}`);
  await waitFor(engineAnswers, timeoutMs, 'docker version to answer');
  return output.trim();
}
