// The chat on a terminal: `[thinking...]` while the model works, its words as they stream, each
// tool call and its result in a few lines, tokens and time after each answer. Everything that came
// from the model or the sandbox is sanitised before it is written; colour only when `style` has it.
import { stripThinking } from '../../agent/parse-turn.js';
import type { ChatEmitter, ChatEvent } from '../../chat/events.js';
import { formatDuration } from '../../text/markdown.js';
import { sanitizeLine, sanitizeText } from '../../text/sanitize.js';
import type { Exchange } from '../../state/conversation.js';
import type { TestRecord } from '../../state/run-state.js';
import { diffLines } from '../diff-lines.js';
import type { Style } from './style.js';

/** Where the chat writes. */
export interface ChatOutput {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Lines of a tool call's result shown under it. */
const PREVIEW_LINES = 7;
/** Lines of an edit's diff shown as it lands (/diff shows the whole change). */
const EDIT_DIFF_LINES = 40;
/** Where a tool call written in the text starts: the words stop there. */
const CALL_MARKER = /<tool_call>|<function=|\[TOOL_CALLS\]|<invoke\b/;

/**
 * The part of an answer's text a person reads: without thinking, up to a call written in the text,
 * and (while it streams, not `final`) without a tag still arriving.
 */
export function visibleText(full: string, final = false): string {
  let text = stripThinking(full.replace(/\r\n?/g, '\n'));
  const call = CALL_MARKER.exec(text);
  if (call) text = text.slice(0, call.index);
  // a tag still arriving ("<func") is held back until it shows what it is
  const open = text.lastIndexOf('<');
  if (!final && open >= 0 && !text.slice(open).includes('>') && text.length - open < 20) text = text.slice(0, open);
  return sanitizeText(text);
}

/** Renders a conversation's events and results on a terminal. */
export class ChatRenderer {
  #status = '';
  #timer: NodeJS.Timeout | undefined;
  #full = '';
  #printed = 0;
  #atLineStart = true;
  #thinkingSince = 0;
  #tokens = 0;
  #running: { line: string; since: number } | undefined;
  #saidThinking = false;

  constructor(
    private readonly out: ChatOutput,
    private readonly style: Style,
  ) {}

  /** The emitter to pass to ChatSession.ask. */
  readonly emit: ChatEmitter = (e: ChatEvent) => {
    try {
      this.#event(e);
    } catch {
      // a rendering problem never stops the conversation
    }
  };

  /** An answer begins. */
  begin(): void {
    this.#newTurn();
    if (this.out.isTTY && !this.#timer) this.#timer = setInterval(() => this.#draw(), 250);
    this.#timer?.unref();
    this.#showThinking();
  }

  /** The answer ended: tokens and time. */
  end(e: Exchange): void {
    this.#stopTimer();
    this.#clearStatus();
    this.#endLine();
    const tokens = `${e.prompt_tokens.toLocaleString('en-US')} in · ${e.completion_tokens.toLocaleString('en-US')} out`;
    const how =
      e.end.reason === 'answered'
        ? ''
        : e.end.reason === 'interrupted'
          ? ' · stopped'
          : ` · ended: ${e.end.reason}${e.end.detail ? ` (${sanitizeLine(e.end.detail).slice(0, 200)})` : ''}`;
    this.line(this.style.dim(`── ${tokens} · ${formatDuration(e.duration_ms)}${how}`));
  }

  /** Stop the status line's timer (the session is over). */
  stop(): void {
    this.#stopTimer();
    this.#clearStatus();
  }

  /** A whole line of the chat's own (already safe) text. */
  line(text = ''): void {
    this.#clearStatus();
    this.#endLine();
    this.out.write(`${text}\n`);
    this.#draw();
  }

  /** A change as git printed it, coloured by line (untrusted: sanitised). */
  diff(text: string): void {
    const s = this.style;
    for (const l of sanitizeText(text).replace(/\n$/, '').split('\n')) {
      if (l.startsWith('diff --git') || l.startsWith('index ')) this.line(s.bold(l));
      else if (l.startsWith('+++') || l.startsWith('---')) this.line(s.bold(l));
      else if (l.startsWith('@@')) this.line(s.cyan(l));
      else if (l.startsWith('+')) this.line(s.green(l));
      else if (l.startsWith('-')) this.line(s.red(l));
      else this.line(l);
    }
  }

  /** A test run: how it ended, the failing tests first, then what it printed. */
  test(t: TestRecord): void {
    const s = this.style;
    const passed = t.exit_code === 0 && !t.timed_out;
    const scope = t.scope === 'focused' ? ' (only the tests that failed last time; they still fail)' : '';
    const focus = t.focus ? ` after the failing tests alone passed (${sanitizeLine(t.focus.command)})` : '';
    this.line(
      passed
        ? s.green(`✓ tests pass${focus} · ${formatDuration(t.duration_ms)}`)
        : s.red(
            `✗ tests ${t.timed_out ? 'timed out' : `fail (exit ${t.exit_code})`}${scope} · ${formatDuration(t.duration_ms)}`,
          ),
    );
    this.line(s.dim(`  ${sanitizeLine(t.command)}`));
    const failing = t.parsed?.failing ?? [];
    if (failing.length > 0) {
      this.line(s.bold('failing tests:'));
      for (const f of failing.slice(0, 20))
        this.line(
          `  ${s.red(sanitizeLine(f.id))}${f.file ? s.dim(` (${sanitizeLine(f.file)}${f.line ? `:${f.line}` : ''})`) : ''}`,
        );
      if (failing.length > 20) this.line(s.dim(`  ... and ${failing.length - 20} more`));
    }
    const output = [t.stdout_tail, t.stderr_tail].map((x) => sanitizeText(x).trimEnd()).filter((x) => x !== '');
    if (output.length > 0) {
      this.line(s.bold('output:'));
      for (const l of output.join('\n').split('\n').slice(-60)) this.line(`  ${l}`);
    }
  }

  #event(e: ChatEvent): void {
    switch (e.type) {
      case 'thinking':
        this.#tokens = e.tokens;
        this.#showThinking();
        return;
      case 'text':
        this.#text(e.delta);
        return;
      case 'turn':
        this.#text('', true);
        this.#clearStatus();
        this.#endLine();
        this.#newTurn();
        return;
      case 'step_started':
        this.#clearStatus();
        this.#endLine();
        this.out.write(`${this.style.cyan(`▸ ${e.tool}`)} ${this.#cut(sanitizeLine(e.line), 8)}\n`);
        this.#running = { line: e.line, since: Date.now() };
        this.#draw();
        return;
      case 'step':
        this.#running = undefined;
        this.#step(e);
        this.#thinkingSince = Date.now();
        this.#tokens = 0;
        this.#showThinking();
        return;
      case 'nudge':
        this.line(
          this.style.yellow(`  (the model was nudged: it ${e.pattern === 'repeat' ? 'repeated itself' : e.pattern})`),
        );
        return;
      case 'notice':
        this.line(e.level === 'warning' ? this.style.yellow(`warning: ${sanitizeLine(e.text)}`) : sanitizeLine(e.text));
        return;
    }
  }

  #step(e: Extract<ChatEvent, { type: 'step' }>): void {
    const s = this.style;
    const time = formatDuration(e.durationMs);
    const first = sanitizeLine(e.observation.split('\n').find((l) => l.trim() !== '') ?? '');
    const head =
      e.outcome === 'refused'
        ? s.yellow(`  ⊘ refused: ${this.#cut(first.replace(/^(edit|submit) refused: /, ''), 16)}`)
        : e.outcome === 'failed'
          ? s.red(`  ✗ ${e.exitCode === undefined ? 'failed' : `exit ${e.exitCode}`} · ${time}`)
          : s.green(`  ✓ ${e.exitCode === undefined ? 'ok' : `exit ${e.exitCode}`} · ${time}`);
    this.line(head);
    // an edit shows what it changed as it lands
    if (e.diff && e.outcome === 'ok') {
      for (const l of diffLines(e.diff, s, EDIT_DIFF_LINES, '/diff shows the whole change')) this.line(`  ${l}`);
      return;
    }
    if (e.outcome === 'refused' || e.tool !== 'bash') {
      if (e.outcome === 'failed') this.line(s.dim(`  │ ${this.#cut(first, 6)}`));
      return;
    }
    // its first lines and its last (where test runners and compilers sum up)
    const lines = sanitizeText(e.observation).replace(/\n+$/, '').split('\n');
    const shown =
      lines.length <= PREVIEW_LINES
        ? lines
        : [
            ...lines.slice(0, 2),
            `... ${lines.length - PREVIEW_LINES + 1} more lines`,
            ...lines.slice(-(PREVIEW_LINES - 3)),
          ];
    for (const l of shown) this.line(s.dim(`  │ ${this.#cut(l, 6)}`));
  }

  #text(delta: string, final = false): void {
    this.#full += delta;
    const visible = visibleText(this.#full, final);
    if (visible.length <= this.#printed) return;
    const fresh = visible.slice(this.#printed);
    this.#printed = visible.length;
    this.#clearStatus();
    // the words start on a line of their own, without leading blank lines
    const text = this.#atLineStart ? fresh.replace(/^\n+/, '') : fresh;
    if (text === '') return;
    this.out.write(text);
    this.#atLineStart = text.endsWith('\n');
  }

  #newTurn(): void {
    this.#full = '';
    this.#printed = 0;
    this.#tokens = 0;
    this.#saidThinking = false;
    this.#thinkingSince = Date.now();
  }

  #showThinking(): void {
    if (!this.out.isTTY) {
      // without a live line, once per answer
      if (!this.#saidThinking && this.#atLineStart && this.#printed === 0) {
        this.out.write(`${this.style.dim('[thinking...]')}\n`);
        this.#saidThinking = true;
      }
      return;
    }
    this.#draw();
  }

  #draw(): void {
    if (!this.out.isTTY || !this.#timer) return;
    // the status line only while nothing else is being written on the current line
    if (!this.#atLineStart || (this.#printed > 0 && this.#running === undefined)) return;
    const seconds = ((Date.now() - (this.#running?.since ?? this.#thinkingSince)) / 1000).toFixed(1);
    const text = this.#running
      ? `[running... ${seconds}s]`
      : `[thinking... ${seconds}s${this.#tokens > 0 ? ` · ${this.#tokens} tokens` : ''}]`;
    this.#status = text;
    this.out.write(`\r\u001b[2K${this.style.dim(text)}`);
  }

  #clearStatus(): void {
    if (this.#status === '') return;
    this.out.write('\r\u001b[2K');
    this.#status = '';
  }

  #endLine(): void {
    if (!this.#atLineStart) {
      this.out.write('\n');
      this.#atLineStart = true;
    }
  }

  #stopTimer(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #cut(text: string, indent: number): string {
    const width = Math.max(40, (this.out.columns ?? 100) - indent);
    return text.length > width ? `${text.slice(0, width - 1)}…` : text;
  }
}
