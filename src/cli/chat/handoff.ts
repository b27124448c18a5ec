// `/run` and `/branch`: the conversation handed to the ordinary run API, which records the run,
// tests, delivers the branch and writes PR_SUMMARY.md as `hammer-box run` does. The chat only
// builds the directive (and, for /branch, the answer carrying its change) and prints the result.
import { run } from '../../api/run.js';
import { recordedBase } from '../../chat/base.js';
import { branchHandoff, runDirective } from '../../chat/handoff.js';
import type { OpenChat } from '../../chat/open.js';
import { HammerError } from '../../errors.js';
import { progressRenderer } from '../progress.js';
import { printRunResult } from '../run-result.js';
import { printOutsideLine } from '../terminal-text.js';
import type { ChatRenderer } from './render.js';
import type { Style } from './style.js';

/** Hand the conversation to a run: `run` with a directive, `branch` with its change as the one candidate. */
export async function handOff(
  kind: 'run' | 'branch',
  note: string,
  chat: OpenChat,
  render: ChatRenderer,
  style: Style,
  signal: AbortSignal,
): Promise<void> {
  const { session, sources } = chat;
  const c = session.conversation;
  if (c.exchanges.length === 0)
    throw new HammerError('USAGE', 'there is nothing to hand over yet', { hint: 'ask the model something first' });
  const maxBytes = session.config.prompt.directive_max_bytes;
  const flags = merged(sources.flags, { git: { base: await recordedBase(sources.repo, c, signal) } });
  let options: Parameters<typeof run>[0];
  if (kind === 'branch') {
    const change = await session.candidate(signal);
    if (change === null) {
      render.line(style.dim('no change to deliver: the work tree is at the base'));
      return;
    }
    if (typeof change === 'string')
      throw new HammerError('USAGE', `the change cannot be delivered: ${change}`, {
        hint: 'ask the model to fix that, or take it back with /undo',
      });
    const { directive, answer } = branchHandoff(c, change.patch, maxBytes, note);
    options = {
      ...base(sources),
      // the change is the run's one answer: played back, applied as the model's diff would be, tested
      flags: merged(flags, {
        model: { provider: 'replay', name: c.model.name, edit_format: 'udiff', tools: 'off' },
        loop: { mode: 'diff', max_iterations: 1, max_asks: 0 },
      }),
      directive: `chat ${c.id}`,
      directiveText: directive,
      replayAnswers: [{ text: answer }],
    };
    render.line(
      style.dim(
        `delivering the change (${change.files.length} file${change.files.length === 1 ? '' : 's'}): a run applies it to the base, runs the tests and makes the branch...`,
      ),
    );
  } else {
    const change = await session.diff(signal);
    const extra = note === '' ? '' : `\n\n# The person's note for this run\n\n${note}\n`;
    options = {
      ...base(sources),
      flags,
      directive: `chat ${c.id}`,
      directiveText: `${runDirective(c, change, maxBytes - Buffer.byteLength(extra))}${extra}`,
    };
    render.line(style.dim('handing the conversation to the loop...'));
  }
  const started = Date.now();
  const progress = progressRenderer(process.stderr, process.stderr.isTTY === true, false);
  try {
    const outcome = await run({ ...options, emit: progress, signal, onImageProgress: printOutsideLine });
    await printRunResult(outcome, false, Date.now() - started);
    await session.recordHandoff({
      kind,
      at: new Date().toISOString(),
      run_id: outcome.state.run_id,
      status: outcome.state.status,
      branch: outcome.state.branch?.name ?? null,
    });
  } finally {
    progress.stop();
  }
}

function base(sources: OpenChat['sources']): { repo: string; configFile?: string; env: NodeJS.ProcessEnv } {
  return { repo: sources.repo, env: sources.env, ...(sources.configFile ? { configFile: sources.configFile } : {}) };
}

/** Config flags with `over` set on top, section by section. */
function merged(
  flags: Record<string, unknown>,
  over: Record<string, Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...flags };
  for (const [section, keys] of Object.entries(over)) {
    const prior = out[section];
    out[section] = { ...(typeof prior === 'object' && prior !== null ? prior : {}), ...keys };
  }
  return out;
}
