// `hammer-box plan`: a read-only conversation that ends in plan.md, for `hammer-box run --plan`.
import { spawnSync } from 'node:child_process';
import { constants } from 'node:fs';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { openChat } from '../../chat/open.js';
import { missingPlanSections, planAgain, planRequest } from '../../chat/prompt.js';
import { HammerError } from '../../errors.js';
import { sanitizeLine, sanitizeText } from '../../text/sanitize.js';
import { refuseLinkedLevels } from '../../state/no-follow.js';
import type { Exchange } from '../../state/conversation.js';
import { ChatRenderer } from '../chat/render.js';
import { colourFor, makeStyle } from '../chat/style.js';
import { flagsToConfig, type ConfigFlags } from '../config-flags.js';
import { EXIT } from '../exit-codes.js';
import { backendFlags } from '../../config/backend-flags.js';
import { printOutsideLine } from '../terminal-text.js';

interface PlanFlags extends ConfigFlags {
  repo: string;
  message: string;
  constraint?: string[];
  out: string;
  force?: boolean;
  edit?: boolean;
  config?: string;
  quiet?: boolean;
}

export default async function planCommand(f: PlanFlags): Promise<number> {
  const out = resolve(f.out);
  // below the current directory and the repository, a repository may have committed a link on the way
  await refuseLinkedLevels(out, [process.cwd(), f.repo], {
    what: '--out',
    hint: 'name a file whose directories are real ones (not links a repository carries), e.g. --out plan.md',
  });
  if (!f.force && (await exists(out)))
    throw new HammerError('USAGE', `${out} exists`, { hint: 'pass --force to replace it, or --out <another file>' });
  if (f.message.trim() === '')
    throw new HammerError('USAGE', 'the goal is empty', { hint: 'say what the plan is for: -m "<goal>"' });
  const work = new AbortController();
  const stop = (): void => work.abort(new HammerError('ABORTED', 'interrupted'));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const stderr = process.stderr;
  const render = new ChatRenderer(f.quiet ? { write: () => true } : stderr, makeStyle(colourFor(stderr, process.env)));
  try {
    if (!f.quiet)
      stderr.write('hammer-box: starting the sandbox (read-only: nothing the model runs changes the files)...\n');
    const chat = await openChat({
      repo: f.repo,
      ...(f.config ? { configFile: f.config } : {}),
      flags: flagsToConfig(f),
      env: process.env,
      signal: work.signal,
      kind: 'plan',
      mode: 'plan',
      goal: f.message,
      ...(f.quiet ? {} : { onImageProgress: printOutsideLine }),
    });
    // a warning shows even with --quiet (as a run's do)
    if (chat.warning) stderr.write(`hammer-box: warning: ${sanitizeLine(chat.warning)}\n`);
    try {
      const ask = async (text: string): Promise<Exchange> => {
        render.begin();
        const r = await chat.session.ask(text, { signal: work.signal, on: render.emit });
        render.end(r.exchange);
        if (r.error !== undefined) throw r.error;
        if (r.exchange.end.reason === 'interrupted') throw new HammerError('ABORTED', 'interrupted');
        return r.exchange;
      };
      let answer = await ask(planRequest(f.message, f.constraint ?? []));
      let missing = missingPlanSections(answer.answer);
      if (answer.answer.trim() !== '' && missing.length > 0) {
        answer = await ask(planAgain(missing));
        missing = missingPlanSections(answer.answer);
      }
      if (answer.answer.trim() === '')
        throw new HammerError(
          'MODEL_ERROR',
          `the model ended without a plan (${answer.end.reason}${answer.end.detail ? `: ${answer.end.detail}` : ''})`,
          {
            hint: `try again, or raise [agent] max_steps; the conversation is kept: hammer-box chat --continue ${chat.session.conversation.id}`,
          },
        );
      const maxBytes = chat.session.config.prompt.directive_max_bytes;
      const text = planText(answer.answer, maxBytes);
      await writePlan(out, text, f.force === true);
      // on a terminal the plan was on the screen as it came: stdout gets it when it goes elsewhere
      if (f.quiet || process.stdout.isTTY !== true || process.stderr.isTTY !== true) process.stdout.write(text);
      if (!f.quiet) {
        if (missing.length > 0)
          stderr.write(`hammer-box: WARNING: the plan lacks ${missing.join(', ')}; edit it before you run it\n`);
        stderr.write(
          `hammer-box: plan written to ${out} (conversation ${chat.session.conversation.id}). Edit it, then:\n  hammer-box run --repo ${shellWord(f.repo)} --plan ${shellWord(f.out)}${backendFlags(chat.session.config, { trust: true })}${f.config ? ` --config ${shellWord(f.config)}` : ''}\n`,
        );
      }
    } finally {
      render.stop();
      await chat.close();
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  if (f.edit) {
    const editor = process.env['VISUAL'] || process.env['EDITOR'];
    if (!editor) {
      stderr.write('hammer-box: --edit: neither VISUAL nor EDITOR is set\n');
      return EXIT.usage;
    }
    spawnSync('sh', ['-c', `${editor} "$1"`, 'editor', out], { stdio: 'inherit' });
  }
  return 0;
}

/** The model's plan as the file holds it: sanitised, starting at its title, within the directive's size. */
export function planText(answer: string, maxBytes: number): string {
  let text = sanitizeText(answer).trim();
  const title = /^# /m.exec(text);
  if (title && title.index > 0) text = text.slice(title.index);
  while (Buffer.byteLength(text) > maxBytes - 1) text = text.slice(0, Math.floor(text.length * 0.9));
  return `${text}\n`;
}

/** Write the plan beside its final name and move it there (never through a symlink at `out`). */
async function writePlan(out: string, text: string, force: boolean): Promise<void> {
  const tmp = join(dirname(out), `.${basename(out)}.${process.pid}.tmp`);
  const fh = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    await fh.writeFile(text);
  } finally {
    await fh.close();
  }
  if (!force && (await exists(out))) {
    await unlink(tmp);
    throw new HammerError('USAGE', `${out} appeared while the plan was made`, { hint: 'pass --force to replace it' });
  }
  await rename(tmp, out);
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

function shellWord(s: string): string {
  return /^[\w./~-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
