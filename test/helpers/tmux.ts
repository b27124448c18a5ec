// A real terminal for tests of the interactive commands: a program run in a tmux pane on a tmux
// server of its own, driven by keys (send-keys) and read as a person sees it (capture-pane).
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';

const run = promisify(execFile);

/** A program in a terminal. */
export interface Terminal {
  /** Type `text` and press Enter. */
  type(text: string): Promise<void>;
  /** Press keys by tmux name (`C-c`, `C-d`, `Enter`, `Up`). */
  press(...keys: string[]): Promise<void>;
  /** The screen and its scrollback as text, without colour, trailing spaces and the empty rows below. */
  screen(): Promise<string>;
  /** The screen with its escape sequences (colour) kept. */
  rawScreen(): Promise<string>;
  /** Wait until the screen (after `from`, a length of an earlier screen) matches; the text it matched in. */
  waitFor(pattern: RegExp, opts?: { timeoutMs?: number; from?: number }): Promise<string>;
  /** Wait until the program has ended; its exit status. */
  exited(timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

let serial = 0;

/** Start `argv` in `cwd` with exactly `env`, in a terminal of `width` x `height`. */
export async function openTerminal(
  argv: string[],
  opts: { cwd: string; env: Record<string, string>; dir: string; width?: number; height?: number },
): Promise<Terminal> {
  const socket = `hb-test-${process.pid}-${++serial}`;
  const conf = join(opts.dir, `${socket}.conf`);
  // the pane stays after the program exits, so its last screen can be read
  await writeFile(
    conf,
    'set -g remain-on-exit on\nset -g history-limit 20000\nset -g default-terminal tmux-256color\n',
  );
  const tmux = (...args: string[]) => run('tmux', ['-L', socket, '-f', conf, ...args], { maxBuffer: 64 * 1024 * 1024 });
  // the program's exit status is printed after it (tmux reaps its child late at times, so its own
  // pane_dead_status cannot be waited for)
  const command = [
    'env',
    '-i',
    ...Object.entries(opts.env).map(([k, v]) => `${k}=${v}`),
    'sh',
    '-c',
    '"$@"; printf \'\\n[exited %s]\\n\' "$?"',
    'sh',
    ...argv,
  ]
    .map(quote)
    .join(' ');
  await tmux(
    'new-session',
    '-d',
    '-s',
    'main',
    '-x',
    String(opts.width ?? 160),
    '-y',
    String(opts.height ?? 50),
    '-c',
    opts.cwd,
    command,
  );
  // without the empty rows below the cursor (tmux also drops each line's trailing spaces)
  const capture = async (escapes: boolean): Promise<string> =>
    (await tmux('capture-pane', '-p', '-J', ...(escapes ? ['-e'] : []), '-t', 'main', '-S', '-20000')).stdout.replace(
      /\s+$/,
      '',
    );
  const EXITED = /\n\[exited (\d+)\](?:\n|$)/;
  const dead = async (): Promise<number | null> => {
    const m = EXITED.exec(await capture(false));
    return m ? Number(m[1]) : null;
  };
  return {
    type: async (text) => {
      await tmux('send-keys', '-t', 'main', '-l', text);
      await tmux('send-keys', '-t', 'main', 'Enter');
    },
    press: async (...keys) => {
      await tmux('send-keys', '-t', 'main', ...keys);
    },
    screen: () => capture(false),
    rawScreen: () => capture(true),
    waitFor: async (pattern, o = {}) => {
      const deadline = Date.now() + (o.timeoutMs ?? 60_000);
      let text = '';
      for (;;) {
        text = (await capture(false)).slice(o.from ?? 0);
        if (pattern.test(text)) return text;
        if ((await dead()) !== null && !pattern.test((text = (await capture(false)).slice(o.from ?? 0))))
          throw new Error(`the program ended before the screen showed ${pattern}:\n${text}`);
        if (Date.now() > deadline) throw new Error(`the screen never showed ${pattern}:\n${text}`);
        await sleep(100);
      }
    },
    exited: async (timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status = await dead();
        if (status !== null) return status;
        if (Date.now() > deadline) throw new Error(`the program did not exit:\n${await capture(false)}`);
        await sleep(100);
      }
    },
    close: async () => {
      await tmux('kill-server').catch(() => undefined);
    },
  };
}

function quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
