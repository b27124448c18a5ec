// The host side of the git launcher (see launcher-script.ts): one small helper process, started on
// the first git command, that starts every later one, so node's thread never pays for forking
// itself. A host without perl, or a helper that does not start, leaves every command to node's
// own spawn; a helper that dies later fails the commands it was running, and node spawns the rest.
import { spawn, type ChildProcess } from 'node:child_process';
import { encodeFrame, FrameParser } from '../frames.js';
import { LAUNCHER_HELLO, LAUNCHER_SCRIPT } from './launcher-script.js';

/** What the caller hears about one command. */
export interface LaunchHandlers {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /** It ended: its exit code, or 128 + the signal that ended it. */
  exit(code: number): void;
  /**
   * It never ran: `errno` from chdir, fork or exec (ENOENT: no such program); or, with errno
   * null, the helper went away before it started (`started` false: safe to run it another way).
   */
  failed(why: { stage: string; errno: number | null; started: boolean }): void;
}

/** The signals a launched command is sent (Launched.kill takes numbers: these are Linux's and macOS's). */
export const SIGTERM = 15;
export const SIGKILL = 9;

/** One command started through the launcher. */
export interface Launched {
  /** Send it a signal (by number). */
  kill(signal: number): void;
  /** Let it send `bytes` more of stdout (a command started with a credit sends no more than granted). */
  grant(bytes: number): void;
}

const NO_LIMIT = 0xffffffff;
/** The largest frame the helper sends: an id and at most 65,527 bytes of output. */
const MAX_FRAME = 64 * 1024;

/** The helper: commands go in as frames, their output and ends come back as frames. */
export class GitLauncher {
  private readonly commands = new Map<number, LaunchHandlers>();
  private nextId = 1;
  // a frame's payload is the command's id (u32) and the rest
  private readonly frames = new FrameParser(MAX_FRAME, (kind, payload) =>
    this.frame(kind, payload.readUInt32BE(0), payload.subarray(4)),
  );
  private ready = false;
  private gone = false;
  private closing = false;

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => this.read(chunk));
    child.stdin!.on('error', () => undefined); // the helper's end shows as its exit below
    child.on('error', () => this.lost());
    child.on('close', () => this.lost());
    this.idle();
  }

  /** Start the helper (its readiness shows later); null when it cannot even be spawned. */
  static start(): GitLauncher | null {
    let child: ChildProcess;
    try {
      child = spawn('perl', ['-e', LAUNCHER_SCRIPT], {
        // nothing from the environment may steer perl (PERL5LIB, PERL5OPT...): only where to find it
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        stdio: ['pipe', 'pipe', 'ignore'],
        windowsHide: true,
      });
    } catch {
      return null;
    }
    return new GitLauncher(child);
  }

  /** The helper's process id (undefined if it could not be spawned). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** False once the helper is gone (it never started, died, or was closed). */
  get alive(): boolean {
    return !this.gone && !this.closing;
  }

  /** Start `argv` (argv[0] found on env.PATH) in `cwd` with exactly `env`, `input` on its stdin. */
  run(
    argv: readonly string[],
    opts: {
      cwd: string;
      env: Readonly<Record<string, string>>;
      input: Buffer;
      /** Bytes of stdout it may send before `grant` (default: no limit). */
      credit?: number;
    },
    handlers: LaunchHandlers,
  ): Launched {
    const id = this.nextId++;
    if (!this.alive) {
      handlers.failed({ stage: 'launcher', errno: null, started: false });
      return { kill: () => undefined, grant: () => undefined };
    }
    this.commands.set(id, handlers);
    if (this.commands.size === 1) this.busy();
    const env = Object.entries(opts.env).map(([k, v]) => `${k}=${v}`);
    const fields = Buffer.from([opts.cwd, String(env.length), ...env, String(argv.length), ...argv].join('\0'), 'utf8');
    const head = Buffer.alloc(8);
    head.writeUInt32BE(opts.credit === undefined ? NO_LIMIT : Math.min(opts.credit, NO_LIMIT - 1), 0);
    head.writeUInt32BE(opts.input.length, 4);
    this.send('c', id, Buffer.concat([head, opts.input, fields]));
    const live = (): boolean => !this.gone && this.commands.has(id);
    return {
      kill: (signal: number) => {
        if (!live()) return;
        const n = Buffer.alloc(4);
        n.writeUInt32BE(signal);
        this.send('k', id, n);
      },
      grant: (bytes: number) => {
        if (!live() || bytes <= 0) return;
        const n = Buffer.alloc(4);
        n.writeUInt32BE(Math.min(bytes, NO_LIMIT - 1));
        this.send('g', id, n);
      },
    };
  }

  /** End the helper; commands still running are killed by it. */
  close(): void {
    // the helper kills what it runs and exits (those commands fail as lost); new ones run as node's children
    this.closing = true;
    this.child.stdin?.end();
  }

  private send(kind: 'c' | 'k' | 'g', id: number, payload: Buffer): void {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(id);
    this.child.stdin!.write(encodeFrame(kind, Buffer.concat([head, payload])));
  }

  // a frame the helper should never send (too large, too short for its id) ends it: its commands fail as lost
  private read(chunk: Buffer): void {
    try {
      this.frames.push(chunk);
    } catch {
      this.child.kill('SIGKILL');
      this.lost();
    }
  }

  private frame(kind: string, id: number, payload: Buffer): void {
    if (kind === 'r') {
      if (payload.toString('latin1') === LAUNCHER_HELLO) this.ready = true;
      return;
    }
    const h = this.commands.get(id);
    if (!h) return;
    if (kind === 'o') h.stdout(payload);
    else if (kind === 'e') h.stderr(payload);
    else if (kind === 'x' || kind === 'f') {
      this.commands.delete(id);
      if (this.commands.size === 0) this.idle();
      const [a = '', b = ''] = payload.toString('latin1').split(' ');
      if (kind === 'x') h.exit(Number(b) === 0 ? Number(a) : 128 + Number(b));
      else h.failed({ stage: a, errno: Number(b), started: true });
    }
  }

  private lost(): void {
    if (this.gone) return;
    this.gone = true;
    const started = this.ready;
    const left = [...this.commands.values()];
    this.commands.clear();
    for (const h of left) h.failed({ stage: 'launcher', errno: null, started });
  }

  // the helper never keeps node alive by itself: only while a command runs
  private busy(): void {
    for (const h of this.handles()) h.ref();
  }

  private idle(): void {
    for (const h of this.handles()) h.unref();
  }

  private handles(): { ref(): void; unref(): void }[] {
    const { child } = this;
    return [child, child.stdin, child.stdout].filter((h) => h !== null) as unknown as {
      ref(): void;
      unref(): void;
    }[];
  }
}

let shared: GitLauncher | null | undefined;
let enabled = process.env.HAMMER_GIT_LAUNCHER !== '0';

/**
 * The process's launcher, started on first use; null when commands go through node's spawn: it is
 * turned off (HAMMER_GIT_LAUNCHER=0), could not be spawned, or went away (it is not started twice).
 */
export function gitLauncher(): GitLauncher | null {
  if (!enabled) return null;
  if (shared === undefined) shared = GitLauncher.start();
  if (shared && !shared.alive) shared = null;
  return shared;
}

/** Turn the launcher on or off for this process (tests run both ways); either way a running one is closed. */
export function setGitLauncher(on: boolean): void {
  enabled = on;
  shared?.close();
  shared = undefined;
}
