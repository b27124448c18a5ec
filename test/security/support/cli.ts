// The built CLI (`node dist/cli/main.js`, as `make build` leaves it) run as a child process: what
// it printed on the terminal (stdout and stderr, capped), how it exited, and its peak memory.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const MAIN = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));

/** Throw a clear error when the CLI has not been built. */
export function requireBuiltCli(): void {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'`);
}

/** How a CLI process ended and what it printed. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The highest resident set size sampled while it ran, in bytes (0 if never sampled). */
  peakRss: number;
}

/** A CLI process in flight. */
export interface CliProcess {
  child: ChildProcess;
  /** What it printed so far. */
  output(): { stdout: string; stderr: string };
  done: Promise<CliResult>;
}

const CAP = 4 * 1024 * 1024;

/** Start `hammer-box <args>` with `env`. */
export function startCli(args: string[], env: NodeJS.ProcessEnv): CliProcess {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let peakRss = 0;
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout = (stdout + s).slice(-CAP)));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr = (stderr + s).slice(-CAP)));
  const sample = setInterval(() => {
    if (child.pid === undefined) return;
    readFile(`/proc/${child.pid}/status`, 'utf8')
      .then((s) => {
        const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(s)?.[1] ?? 0);
        peakRss = Math.max(peakRss, kb * 1024);
      })
      .catch(() => undefined);
  }, 100);
  const done = new Promise<CliResult>((resolve, reject) => {
    child.once('error', (err) => {
      clearInterval(sample);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearInterval(sample);
      resolve({ code, signal, stdout, stderr, peakRss });
    });
  });
  return { child, output: () => ({ stdout, stderr }), done };
}

/** Run `hammer-box <args>` to its end. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return startCli(args, env).done;
}

/** Poll `cond` every 50 ms until it holds; throws after `ms`. */
export async function waitFor(cond: () => Promise<boolean> | boolean, ms: number, what = 'a condition'): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

/** How a CLI run on a terminal ended: everything the terminal showed, stdout and stderr together. */
export interface TerminalResult {
  code: number | null;
  screen: string;
}

/**
 * Run `hammer-box <args>` on a pseudo-terminal (util-linux script(1)), so stdout and stderr are
 * TTYs and the live progress renderer is used; returns everything the terminal received.
 */
export function runCliOnTerminal(args: string[], env: NodeJS.ProcessEnv): Promise<TerminalResult> {
  const quote = (a: string): string => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, MAIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...env, TERM: 'xterm-256color', COLUMNS: '120' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (screen = (screen + s).slice(-CAP)));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (screen = (screen + s).slice(-CAP)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, screen }));
  });
}
