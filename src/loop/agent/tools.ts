// The agent's tools, doing: bash runs in the sandbox through the resident runner; the editor works
// on the host (read back, apply, gate, write in); submit reads the work tree's change back as the
// candidate. Every refusal is an observation for the model, never a failure of the run.
import type { Config } from '../../config/schema.js';
import { HammerError } from '../../errors.js';
import { applyEdit, undoEdit, UndoStack } from '../../agent/editor.js';
import { commandTimeoutS } from '../../agent/command-timeout.js';
import { bashObservation } from '../../agent/observation.js';
import type { AgentAction, EditAction } from '../../agent/types.js';
import { firstNewSyntaxError, renderFileDiff, type ProblemCache } from '../../edits/index.js';
import { judgeEffect, type TreeChange } from '../../patch/tree-effect.js';
import { validateDiff, type ValidatedFile } from '../../patch/validate-diff.js';
import type { SandboxRepo } from '../sandbox-repo.js';
import { resolveAgentPath } from './paths.js';

/** The most bytes of a file the editor reads or writes. */
export const EDIT_MAX_BYTES = 1024 * 1024;

/** What one tool call came to. */
export interface ToolResult {
  /** ok; failed (a non-zero exit, a timeout, an editor error); refused (a gate said no: nothing changed). */
  outcome: 'ok' | 'failed' | 'refused';
  /** What the model is shown. */
  observation: string;
  exitCode?: number;
  timedOut?: boolean;
  /** The edit's repository-relative path. */
  path?: string;
  /** The command's own time in the sandbox. */
  commandMs?: number;
  /** An edit that changed a file: that change as a diff (for people; the model is shown `observation`). */
  diff?: string;
  /** submit: the change, vetted (the trajectory ends with it). */
  submitted?: SubmittedChange;
}

/** The work tree's change as submitted: a diff against the iteration's head that passed vetting. */
export interface SubmittedChange {
  patch: string;
  files: ValidatedFile[];
  lines: number;
  added: number;
  removed: number;
  hash: string;
}

/** What the tools need: the sandbox's repository, the settings, and the commit the trajectory started from. */
export interface ToolContext {
  repo: SandboxRepo;
  config: Pick<Config, 'agent' | 'policy' | 'edits' | 'loop'>;
  /** The sandbox commit the work tree started from (what submit diffs against). */
  head: () => string;
  /** Resolves once the work tree is at `head` (the reset before the first call). */
  ready: () => Promise<void>;
  /** The run's test command and its limit (s): a bash command running it gets that limit, not the shell's. */
  tests?: { command: string; timeoutS: number };
  signal?: AbortSignal;
}

/** The three tools of one trajectory (the working directory and the undo history are its own). */
export class AgentTools {
  private cwd: string;
  private readonly undo = new UndoStack();
  private readonly parses: ProblemCache = new Map();

  constructor(private readonly ctx: ToolContext) {
    this.cwd = ctx.repo.sandbox.workdir;
  }

  /** Execute one action; a command gets at most `timeLeftMs` (what is left of the trajectory's wall time). */
  async run(action: AgentAction, timeLeftMs = Infinity): Promise<ToolResult> {
    await this.ctx.ready();
    if (action.tool === 'bash') return this.bash(action.command, timeLeftMs);
    if (action.tool === 'edit') return this.edit(action);
    return this.submit();
  }

  private async bash(command: string, timeLeftMs: number): Promise<ToolResult> {
    const { agent } = this.ctx.config;
    const tests = this.ctx.tests;
    // the test command gets the test limit, anything else the shell's (see command-timeout.ts)
    const own =
      (tests
        ? commandTimeoutS(command, {
            testCommand: tests.command,
            testTimeoutS: tests.timeoutS,
            commandTimeoutS: agent.command_timeout,
          })
        : agent.command_timeout) * 1000;
    // the trajectory's deadline comes first when it is nearer than the command's own bound
    const byDeadline = timeLeftMs < own;
    const timeoutMs = Math.max(1, Math.ceil(Math.min(own, timeLeftMs)));
    const { result, cwd } = await this.ctx.repo.shell(command, this.cwd, timeoutMs, this.ctx.signal);
    this.cwd = cwd;
    const observation = bashObservation(
      {
        exitCode: result.exitCode,
        stdout: result.stdout.text,
        stderr: result.stderr.text,
        timedOut: result.timedOut,
        timeoutMs,
        ...(byDeadline ? { byDeadline: true } : {}),
      },
      { maxLines: agent.observation_lines, maxChars: agent.observation_chars },
    );
    return {
      outcome: result.exitCode === 0 && !result.timedOut ? 'ok' : 'failed',
      observation,
      exitCode: result.exitCode,
      ...(result.timedOut ? { timedOut: true } : {}),
      commandMs: result.durationMs,
    };
  }

  private async edit(action: EditAction): Promise<ToolResult> {
    const resolved = resolveAgentPath(action.path);
    if (!resolved.ok) return { outcome: 'refused', observation: `edit refused: ${resolved.reason}` };
    const path = resolved.path;
    const sig = this.ctx.signal;
    // what the path is and its content, in one step in the sandbox once nothing a command left
    // running is there to change it between this and the write
    const facts = await this.ctx.repo.openFile(path, EDIT_MAX_BYTES, sig);
    const refuse = (why: string): ToolResult => ({ outcome: 'refused', observation: `edit refused: ${why}`, path });
    const fail = (why: string): ToolResult => ({ outcome: 'failed', observation: why, path });
    if (facts.kind === 'link')
      return refuse(`${path} is a symbolic link or goes through one; the editor never follows links`);
    if (facts.kind === 'blocked') return fail(`${path}: a part of the path above it is a file, not a directory`);
    if (facts.kind === 'failed') return fail(`${path} cannot be read in the sandbox: ${facts.reason}`);
    if (facts.kind === 'other') {
      if (action.command !== 'view') return fail(`${path} is a directory (or not a regular file)`);
      return this.listDirectory(path);
    }
    if (facts.kind === 'done') throw new HammerError('INTERNAL', 'the sandbox answered a read as a write');
    if (facts.kind === 'file' && (facts.size > EDIT_MAX_BYTES || facts.content === null))
      return fail(`${path} is ${facts.size} bytes, over the editor's ${EDIT_MAX_BYTES}; use bash to look at it`);
    let current: string | null = null;
    if (facts.kind === 'file' && facts.content !== null) {
      const text = utf8(facts.content);
      if (text === null) return fail(`${path} is not UTF-8 text (binary?); the editor works on text files only`);
      current = text;
    }
    const mode = facts.kind === 'file' ? facts.mode : 0o644;
    if (action.command === 'undo_edit') {
      const undone = undoEdit(this.undo, path);
      if (undone.kind === 'error') return fail(undone.observation);
      const written = await this.write(path, undone.content, mode);
      if (written !== null) return fail(written);
      return { outcome: 'ok', observation: undone.observation, path, diff: editDiff(path, current, undone.content) };
    }
    const outcome = applyEdit(action, current);
    if (outcome.kind === 'error') return fail(outcome.observation);
    if (outcome.kind === 'viewed') return { outcome: 'ok', observation: outcome.observation, path };
    const gate = await this.gate(path, current, outcome.content, mode);
    if (gate !== null) return refuse(gate);
    const written = await this.write(path, outcome.content, mode);
    if (written !== null) return fail(written);
    this.undo.push(path, current);
    return { outcome: 'ok', observation: outcome.observation, path, diff: editDiff(path, current, outcome.content) };
  }

  /** The gates a diff passes, for one edit: the path policy by the edit's effect, then the syntax gate. Null: it may be written. */
  private async gate(path: string, before: string | null, after: string, mode: number): Promise<string | null> {
    const { policy, edits } = this.ctx.config;
    // the edit's effect on the tree: one regular file, its content before and after
    const gitMode = (mode & 0o111) !== 0 ? '100755' : '100644';
    const change: TreeChange = {
      path,
      before: before === null ? null : { mode: gitMode, oid: 'before' },
      after: { mode: gitMode, oid: 'after' },
    };
    const verdict = await judgeEffect([change], policy, (blobs) =>
      Promise.resolve(blobs.map((b) => (b.oid === 'before' ? before : after))),
    );
    if (verdict.kind === 'refused') return verdict.reason;
    if (!edits.syntax_gate) return null;
    const error = await firstNewSyntaxError([{ path, before, after }], this.parses);
    if (error === null) return null;
    const region = error.region.lines.map((l, i) => `${String(error.region.start + i).padStart(6)}\t${l}`).join('\n');
    return `the edit would make ${path} unparseable: line ${error.line}, column ${error.column}: ${error.message}; nothing was written. The file would read:\n${region}`;
  }

  /** Write (or, for null, remove) the file; null when done, else why it was not. */
  private async write(path: string, content: string | null, mode: number): Promise<string | null> {
    const sig = this.ctx.signal;
    // undoing a create: the file goes again
    const r =
      content === null
        ? await this.ctx.repo.removeFile(path, sig)
        : await this.ctx.repo.writeFile(path, Buffer.from(content, 'utf8'), mode, sig);
    if (r.kind === 'done' || (content === null && r.kind === 'missing')) return null;
    if (r.kind === 'failed') return `${path} could not be written in the sandbox: ${r.reason}`;
    if (r.kind === 'link') return `${path} is a symbolic link or goes through one; nothing was written`;
    if (r.kind === 'blocked') return `${path}: a part of the path above it is a file, not a directory`;
    return `${path} is a directory (or not a regular file); nothing was written`;
  }

  private async listDirectory(path: string): Promise<ToolResult> {
    const quoted = `'${path.replace(/'/g, `'\\''`)}'`;
    const { result } = await this.ctx.repo.shell(
      `find ${quoted} -maxdepth 2 -not -path '*/.git' -not -path '*/.git/*' | sort | head -n 400`,
      this.ctx.repo.sandbox.workdir,
      30_000,
      this.ctx.signal,
    );
    return { outcome: 'ok', observation: result.stdout.text, path };
  }

  /**
   * submit: the work tree's change against the head, read back as untrusted bytes and vetted as a
   * diff would be. A change that cannot go on (too large, not UTF-8, binary, a link) is an
   * observation and the trajectory goes on; an empty one is submitted as no change.
   */
  private async submit(): Promise<ToolResult> {
    const { policy, loop } = this.ctx.config;
    const read = await this.ctx.repo.candidate(this.ctx.head(), policy.max_patch_bytes, this.ctx.signal);
    const refuse = (why: string): ToolResult => ({
      outcome: 'refused',
      observation: `submit refused: ${why}. Fix that, then submit again.`,
    });
    if (read === null) return { outcome: 'ok', observation: 'submitted: no change', submitted: emptyChange() };
    if (!Buffer.isBuffer(read))
      return refuse(
        `the change is ${read.tooLarge} bytes, over the ${policy.max_patch_bytes}-byte limit ([policy] max_patch_bytes)`,
      );
    const patch = utf8(read);
    if (patch === null) return refuse('the change holds a file that is not UTF-8 text');
    const vetted = validateDiff(patch, { maxDiffLines: loop.max_diff_lines });
    if (!vetted.ok) return refuse(vetted.reason);
    const { files, lines, added, removed, hash } = vetted;
    return {
      outcome: 'ok',
      observation: `submitted: ${files.length} file${files.length === 1 ? '' : 's'} changed (+${added} -${removed})`,
      submitted: { patch, files, lines, added, removed, hash },
    };
  }
}

/** One edit's change of `path` as a diff (null content: the file is not there). */
function editDiff(path: string, before: string | null, after: string | null): string {
  return renderFileDiff({
    oldPath: before === null ? null : path,
    newPath: after === null ? null : path,
    before,
    after,
  });
}

/** The change of a submit that changed nothing. */
function emptyChange(): SubmittedChange {
  return { patch: '', files: [], lines: 0, added: 0, removed: 0, hash: '' };
}

/** The bytes as UTF-8 text, or null when they are not (or hold NUL). */
function utf8(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}
