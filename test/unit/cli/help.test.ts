// Every command's help: an example, required options marked, and the defaults a user needs.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/program.js';

/** Leaf commands (those that run something), with their full names. */
function leaves(cmd: Command, prefix = ''): [string, Command][] {
  return cmd.commands.flatMap((c) => {
    const name = `${prefix}${c.name()}`;
    return c.commands.length > 0 ? leaves(c, `${name} `) : [[name, c] as [string, Command]];
  });
}

function helpOf(cmd: Command): string {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  cmd.outputHelp();
  return text;
}

describe('help', () => {
  const commands = leaves(buildProgram('0.0.0-test'));

  it.each(commands)('%s shows an example of itself', (name, cmd) => {
    expect(helpOf(cmd)).toMatch(new RegExp(`\\nExample:\\n {2}\\$ hammer-box ${name}( |\\n)`));
  });

  it('marks the options a command cannot run without', () => {
    const plan = commands.find(([n]) => n === 'plan')![1];
    expect(helpOf(plan)).toMatch(/-m, --message <goal> +required: /);
  });

  it('takes the repository in . unless --repo says otherwise, for every command that takes one', () => {
    for (const [name, cmd] of commands) {
      const repo = cmd.options.find((o) => o.long === '--repo');
      if (repo === undefined || ['doctor', 'monitor'].includes(name)) continue;
      expect(repo.defaultValue, name).toBe('.');
      expect(repo.mandatory, name).toBe(false);
    }
  });

  it('shows each default once', () => {
    for (const [name, cmd] of commands) {
      for (const line of helpOf(cmd).split('\n'))
        expect(line.match(/\(default:/g)?.length ?? 0, `${name}: ${line}`).toBeLessThanOrEqual(1);
    }
  });

  it('names the help after a usage error', async () => {
    const program = buildProgram('0.0.0-test');
    let said = '';
    const quiet = (c: Command): void => {
      c.configureOutput({ writeErr: (s) => (said += s), writeOut: () => undefined });
      c.commands.forEach(quiet);
    };
    quiet(program);
    await program.parseAsync(['runs', 'show', '--frobnicate'], { from: 'user' }).catch(() => undefined);
    expect(said).toBe("error: unknown option '--frobnicate'\n(see 'hammer-box runs show --help')\n");
  });

  it('refuses --directive together with -m', async () => {
    const program = buildProgram('0.0.0-test');
    program.configureOutput({ writeErr: () => undefined });
    program.commands.forEach((c) => c.configureOutput({ writeErr: () => undefined }));
    const err = await program
      .parseAsync(['run', '--repo', '.', '--directive', 'd.md', '-m', 'text'], { from: 'user' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'commander.conflictingOption' });
  });

  it('shows the defaults of run and doctor options that have one', () => {
    for (const name of ['run', 'doctor']) {
      const help = helpOf(commands.find(([n]) => n === name)![1]);
      for (const flag of ['--provider', '--model', '--llm-url'])
        expect(help).toMatch(new RegExp(`${flag} <[a-z]+> +[^\\n]*\\(default: `));
    }
  });
});
