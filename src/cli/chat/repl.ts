// The chat's read-eval loop on a terminal: a line editor with history at the prompt (node's
// readline), the slash commands, and Ctrl-C: while the model answers or a command runs it stops
// that (the terminal is in raw mode, so the key never reaches other processes as a signal); at an
// empty prompt a second one in a row leaves.
import { emitKeypressEvents, createInterface } from 'node:readline';
import type { OpenChat } from '../../chat/open.js';
import { HammerError, isHammerError } from '../../errors.js';
import { sanitizeLine, sanitizeText } from '../../text/sanitize.js';
import type { Exchange } from '../../state/conversation.js';
import { renderError } from '../render-error.js';
import { handOff } from './handoff.js';
import { ChatRenderer } from './render.js';
import { completeSlash, parseTyped, SLASH_COMMANDS, type SlashName } from './slash.js';
import { colourFor, makeStyle, type Style } from './style.js';

/** Errors after which the sandbox or the state cannot be used: the chat ends. */
const FATAL = new Set(['ENGINE_UNAVAILABLE', 'SANDBOX_BROKEN', 'SANDBOX_PIDS_FULL', 'STATE_UNWRITABLE', 'INTERNAL']);

/** Where the chat reads and writes. */
export interface ReplIO {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/** What a prompt came to. */
type Read = { kind: 'line'; text: string } | { kind: 'sigint'; hadText: boolean } | { kind: 'eof' };

/** Run the conversation until /quit, Ctrl-D, or Ctrl-C twice; the exit code. */
export async function runRepl(chat: OpenChat, io: ReplIO): Promise<number> {
  const style = makeStyle(colourFor(io.output, io.env));
  const render = new ChatRenderer(io.output, style);
  const { session } = chat;
  const history = session.conversation.exchanges.map((e) => e.user.split('\n')[0]!).reverse();
  const lines = io.input.isTTY ? null : pipedLines(io.input);
  let work: AbortController | undefined;
  let leaving = false;

  const leaveNow = (): void => {
    if (leaving) return;
    leaving = true;
    render.line(style.yellow('leaving (the conversation is kept)'));
    const exit = (): never => process.exit(130);
    setTimeout(exit, 4_000).unref();
    void chat.close().finally(exit);
  };
  // Ctrl-C (a key in raw mode, or SIGINT from elsewhere): stop the work; again while it stops: leave
  const interrupt = (): void => {
    if (work === undefined) return;
    if (work.signal.aborted) return leaveNow();
    render.line(style.yellow('^C stopping (press Ctrl-C again to leave)'));
    work.abort(new HammerError('ABORTED', 'stopped by Ctrl-C'));
  };
  const onSignal = (): void => (work ? interrupt() : leaveNow());
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', leaveNow);

  /** Run `fn` as stoppable work: Ctrl-C aborts its signal. */
  const during = async <T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    work = new AbortController();
    const keys = io.input.isTTY ? watchCtrlC(io.input, interrupt) : () => undefined;
    try {
      return await fn(work.signal);
    } finally {
      keys();
      work = undefined;
    }
  };

  const read = (): Promise<Read> => {
    if (lines) return lines.next();
    const prompt = session.mode === 'plan' ? `${style.magenta('plan')}› ` : `${style.cyan('chat')}› `;
    return promptLine(io, prompt, history);
  };

  render.line(style.bold(`hammer-box chat · ${sanitizeLine(chat.environmentLine)}`));
  const c = session.conversation;
  if (c.exchanges.length > 0) showResumed(render, style, c.exchanges.at(-1)!, c.id, c.exchanges.length);
  else
    render.line(style.dim(`conversation ${c.id}. Type a message, /help for the commands, Ctrl-D or /quit to leave.`));
  if (chat.warning) render.line(style.yellow(`warning: ${sanitizeLine(chat.warning)}`));

  let sigints = 0;
  let code = 0;
  try {
    for (;;) {
      const r = await read();
      if (leaving) break;
      if (r.kind === 'eof') break;
      if (r.kind === 'sigint') {
        if (r.hadText) {
          sigints = 0;
          continue;
        }
        if (++sigints >= 2) break;
        render.line(style.dim('(press Ctrl-C again, or type /quit, to leave)'));
        continue;
      }
      sigints = 0;
      const typed = parseTyped(r.text);
      if (typed.kind === 'empty') continue;
      if (typed.kind === 'unknown') {
        render.line(
          style.yellow(
            `unknown command /${sanitizeLine(typed.name)}${typed.suggestion ? ` (did you mean /${typed.suggestion}?)` : ''}; /help lists them`,
          ),
        );
        continue;
      }
      try {
        if (typed.kind === 'message') {
          render.begin();
          const out = await during((signal) => session.ask(typed.text, { signal, on: render.emit }));
          render.end(out.exchange);
          if (out.error !== undefined) render.line(style.red(renderError(out.error).text));
          continue;
        }
        if (typed.name === 'quit') break;
        await command(typed.name, typed.arg);
      } catch (err) {
        if (isHammerError(err, 'ABORTED')) {
          render.line(style.yellow('stopped'));
          continue;
        }
        const e = renderError(err);
        render.line(style.red(e.text));
        if (FATAL.has(e.code)) {
          code = e.exitCode;
          break;
        }
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', leaveNow);
    render.stop();
    lines?.close();
  }
  if (!leaving) {
    render.line(
      style.dim(`conversation ${session.conversation.id} kept; continue it with: hammer-box chat --continue`),
    );
    await chat.close();
  }
  return code;

  async function command(name: Exclude<SlashName, 'quit'>, arg: string): Promise<void> {
    switch (name) {
      case 'help':
        for (const [n, what] of Object.entries(SLASH_COMMANDS))
          render.line(`  ${style.bold(`/${n}`.padEnd(8))} ${what}`);
        render.line(
          style.dim(
            '  Ctrl-C stops an answer or a command; at an empty prompt, twice leaves. // starts a message with /.',
          ),
        );
        return;
      case 'plan':
        await during((s) => session.setMode('plan', s));
        render.line(
          style.magenta(
            'read-only mode: edits are refused, what commands change in the files is undone (/code to leave it)',
          ),
        );
        return;
      case 'code':
        await session.setMode('code');
        render.line(style.cyan('code mode: the model may edit files'));
        return;
      case 'diff': {
        const diff = await during((s) => session.diff(s));
        if (diff === '') render.line(style.dim('no change: the work tree is at the base'));
        else render.diff(diff);
        return;
      }
      case 'test': {
        render.line(style.dim(`running the tests (${sanitizeLine(session.testCommand)})...`));
        const t = await during((signal) => session.test({ signal }));
        render.test(t);
        return;
      }
      case 'undo': {
        const undone = await during((s) => session.undo(s));
        if (undone === null) render.line(style.dim('nothing to undo'));
        else
          render.line(
            `took back exchange ${undone.n} (${style.dim(sanitizeLine(undone.user).slice(0, 60))}); the files are as they were before it`,
          );
        return;
      }
      case 'tools':
        render.line(
          `${style.bold('bash')}   one shell command in the sandbox (no network)${session.mode === 'plan' ? '; in read-only mode its changes to the files are undone' : ''}`,
        );
        render.line(
          `${style.bold('edit')}   view, create, str_replace, insert, undo_edit${session.mode === 'plan' ? '; in read-only mode only view' : ''} (the path policy and the syntax gate apply)`,
        );
        render.line(`${style.bold('submit')} hands the change to you: /test, /branch or /run`);
        return;
      case 'config':
        showConfig(render, style, chat);
        return;
      case 'new': {
        await during((s) => session.restart(chat.fresh(), s));
        render.line(`new conversation ${session.conversation.id}; the work tree is back at the base`);
        return;
      }
      case 'run':
      case 'branch':
        await during((signal) => handOff(name, arg, chat, render, style, signal));
        return;
    }
  }
}

/** One line from the person, with line editing and history (a fresh readline each time). */
function promptLine(io: ReplIO, prompt: string, history: string[]): Promise<Read> {
  const rl = createInterface({
    input: io.input,
    output: io.output,
    terminal: true,
    history: [...history],
    historySize: 500,
    removeHistoryDuplicates: true,
    completer: (line: string) => completeSlash(line),
  });
  return new Promise<Read>((resolve) => {
    let done = false;
    const finish = (r: Read): void => {
      if (done) return;
      done = true;
      if (r.kind === 'line' && r.text.trim() !== '') {
        const i = history.indexOf(r.text);
        if (i >= 0) history.splice(i, 1);
        history.unshift(r.text);
        history.length = Math.min(history.length, 500);
      }
      if (r.kind === 'sigint') io.output.write('^C\n');
      rl.close();
      resolve(r);
    };
    rl.on('line', (text) => finish({ kind: 'line', text }));
    rl.on('SIGINT', () => finish({ kind: 'sigint', hadText: rl.line.length > 0 }));
    rl.on('close', () => finish({ kind: 'eof' }));
    rl.setPrompt(prompt);
    rl.prompt();
  });
}

/** Lines from a stdin that is not a terminal (a script piping messages in). */
function pipedLines(input: NodeJS.ReadStream): { next(): Promise<Read>; close(): void } {
  const rl = createInterface({ input, terminal: false });
  const it = rl[Symbol.asyncIterator]();
  return {
    next: async () => {
      const r = await it.next();
      return r.done ? { kind: 'eof' } : { kind: 'line', text: String(r.value) };
    },
    close: () => rl.close(),
  };
}

/** While work runs: the terminal in raw mode, Ctrl-C read as a key (other keys are dropped). */
function watchCtrlC(input: NodeJS.ReadStream, onCtrlC: () => void): () => void {
  emitKeypressEvents(input);
  const onKey = (_s: string | undefined, key: { ctrl?: boolean; name?: string } | undefined): void => {
    if (key?.ctrl === true && key.name === 'c') onCtrlC();
  };
  input.setRawMode(true);
  input.on('keypress', onKey);
  input.resume();
  return () => {
    input.off('keypress', onKey);
    input.setRawMode(false);
    input.pause();
  };
}

function showResumed(render: ChatRenderer, style: Style, last: Exchange, id: string, count: number): void {
  render.line(style.dim(`continuing conversation ${id} (${count} exchange${count === 1 ? '' : 's'}); the last one:`));
  render.line(`${style.bold('you›')} ${sanitizeText(last.user).trim()}`);
  if (last.steps.length > 0)
    render.line(style.dim(`  (${last.steps.length} tool call${last.steps.length === 1 ? '' : 's'})`));
  render.line(
    `${style.bold('model›')} ${last.answer === '' ? style.dim(`(no answer: ${last.end.reason})`) : sanitizeText(last.answer).trim()}`,
  );
  const change = last.change;
  render.line(
    style.dim(
      change === null
        ? 'the work tree is at the base'
        : `the work tree holds the change: ${change.files.map((f) => sanitizeLine(f)).join(', ') || `${change.bytes} bytes`}`,
    ),
  );
}

function showConfig(render: ChatRenderer, style: Style, chat: OpenChat): void {
  const { session } = chat;
  const cfg = session.config;
  const c = session.conversation;
  const url = cfg.model.url.replace(/\/\/[^/@]*@/, '//');
  const rows: [string, string][] = [
    ['conversation', `${c.id} (${c.kind})`],
    ['repository', `${c.repo.path} at ${c.repo.base_ref} (${c.repo.base_commit.slice(0, 12)})`],
    ['model', `${cfg.model.provider} ${cfg.model.name} at ${url} (tools ${cfg.model.tools})`],
    [
      'sandbox',
      `${c.image?.ref ?? cfg.sandbox.image} · ${cfg.sandbox.memory} bytes memory · ${cfg.sandbox.cpus} CPU · runtime ${cfg.sandbox.runtime || 'default'}`,
    ],
    ['tests', session.testCommand],
    ['mode', session.mode === 'plan' ? 'read-only (/plan)' : 'code'],
    [
      'bounds',
      `${cfg.agent.max_steps} tool calls, ${cfg.agent.max_seconds} s, ${cfg.agent.max_tokens} tokens an answer; history ${cfg.agent.history_tokens} tokens; commands ${cfg.agent.command_timeout} s`,
    ],
    ['/run', `mode ${cfg.loop.mode}, up to ${cfg.loop.max_iterations} iterations`],
  ];
  for (const [k, v] of rows) render.line(`  ${style.bold(k.padEnd(12))} ${sanitizeLine(v)}`);
}
