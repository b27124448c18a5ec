// The command-line surface. Each command's module is imported only when it runs, so --help is instant.
import { Command, InvalidArgumentError, Option } from 'commander';

/** Options shared by commands that act on a repository's runs. */
export interface RepoOption {
  repo: string;
}

/** Build the commander program; `run` receives the chosen command's lazy action. */
export function buildProgram(version: string): Command {
  const program = new Command('hammer-box')
    .description(
      'Run a deterministic LLM coding loop against a git repository, with every git apply and test inside a network-less Docker sandbox.',
    )
    .version(version)
    .showSuggestionAfterError()
    // set before subcommands are added: commander copies these settings into each one
    .exitOverride()
    .configureHelp({ sortSubcommands: false });

  const run = program
    .command('run')
    .description('run the loop: generate a patch, check and apply it in the sandbox, test, repeat until the tests pass')
    .requiredOption('--repo <path>', 'the git repository to work on (never modified except for one new branch)')
    .requiredOption('--directive <file>', 'a text file saying what to do')
    .option('--base <ref>', 'branch or commit to start from (default: main)')
    .addOption(new Option('--toolchain <name>', 'toolchain image to test in').conflicts('image'))
    .addOption(
      new Option(
        '--toolchain-version <version>',
        "the toolchain's version instead of the one the repository declares (e.g. 22, 1.25)",
      ).conflicts('image'),
    )
    .option('--image <ref>', 'your own image instead of a toolchain image (must meet the image contract)')
    .option('--test-command <cmd>', 'the test command, run with sh -c in /workspace')
    .option('--test-timeout <seconds>', 'wall-clock limit of one test run', parseNumber)
    .option('--max-iterations <n>', 'stop after this many model answers', parseNumber)
    .option('--max-diff-lines <n>', 'refuse patches longer than this', parseNumber)
    .addOption(new Option('--provider <name>', 'model provider').choices(['ollama', 'openai', 'replay']))
    .option('--model <name>', 'model name (default: qwen3-coder:30b)')
    .option('--llm-url <url>', 'model server URL (default: http://localhost:11434)')
    .option('--config <file>', 'a TOML config file (see configs/default.toml)')
    .option('--json', 'print one JSON document with the result on stdout')
    .addOption(
      new Option('--log-level <level>', 'level of the run log (events.ndjson)')
        .choices(['trace', 'debug', 'info', 'warn', 'error'])
        .default('info'),
    );
  run.action(async (opts: Record<string, unknown>) => lazy('./commands/run.js', opts));

  program
    .command('replay <run_id>')
    .description("run again with the model's recorded answers from an earlier run, to reproduce it exactly")
    .option('--repo <path>', 'the repository the run belongs to', '.')
    .option('--config <file>', 'a TOML config file (the run record never sets limits, policy or where things go)')
    .option('--json', 'print one JSON document with the result on stdout')
    .action(async (runId: string, opts: Record<string, unknown>) => lazy('./commands/replay.js', { ...opts, runId }));

  program
    .command('resume <run_id>')
    .description('continue a run that was interrupted, killed or broke, from its last completed phase')
    .option('--repo <path>', 'the repository the run belongs to', '.')
    .option(
      '--config <file>',
      'a TOML config file (the model, limits and policy come from your config, not the run record)',
    )
    .option('--json', 'print one JSON document with the result on stdout')
    .action(async (runId: string, opts: Record<string, unknown>) => lazy('./commands/resume.js', { ...opts, runId }));

  const runs = program.command('runs').description('list and inspect runs of a repository');
  runs
    .command('list')
    .description('list runs, newest first')
    .option('--repo <path>', 'the repository', '.')
    .option('--json', 'print JSON')
    .action(async (opts: Record<string, unknown>) => lazy('./commands/runs-list.js', opts));
  runs
    .command('show <run_id>')
    .description("show a run's state and where its files are")
    .option('--repo <path>', 'the repository', '.')
    .option('--json', 'print the state file as JSON')
    .action(async (runId: string, opts: Record<string, unknown>) =>
      lazy('./commands/runs-show.js', { ...opts, runId }),
    );

  const tools = program.command('tools').description('the whitelisted tools the loop may run inside the sandbox');
  tools
    .command('list')
    .description('list tools with their JSON contracts (plugins from [tools] plugins included)')
    .option('--config <file>', 'a TOML config file (for [tools] plugins)')
    .option('--json', 'print JSON')
    .action(async (opts: Record<string, unknown>) => lazy('./commands/tools-list.js', opts));

  program
    .command('doctor')
    .description('check the engine and its security options, the images, and the model server')
    .option('--config <file>', 'a TOML config file')
    .option('--repo <path>', 'a repository whose .hammer/config.toml to include')
    .option('--json', 'print JSON')
    .action(async (opts: Record<string, unknown>) => lazy('./commands/doctor.js', opts));

  program
    .command('gc')
    .description('remove sandbox containers and volumes of runs that are no longer alive')
    .option('--json', 'print JSON')
    .action(async (opts: Record<string, unknown>) => lazy('./commands/gc.js', opts));

  const images = program.command('images').description('build and list sandbox images (no registry needed)');
  images
    .command('bootstrap')
    .description('make the base image: pull debian:trixie-slim, or build it with debootstrap')
    .action(async (opts: Record<string, unknown>) => lazy('./commands/images.js', { ...opts, action: 'bootstrap' }));
  images
    .command('build [toolchain]')
    .description(
      'build toolchain images, each at its default version, or one (name@version for another version, e.g. node@22); content-addressed: unchanged images are not rebuilt',
    )
    .action(async (toolchain: string | undefined, opts: Record<string, unknown>) =>
      lazy('./commands/images.js', { ...opts, action: 'build', toolchain }),
    );
  images
    .command('list')
    .description('list hammer-box images: size, created, last used and by which runs')
    .option('--json', 'print JSON')
    .action(async (opts: Record<string, unknown>) => lazy('./commands/images.js', { ...opts, action: 'list' }));
  images
    .command('prune [toolchain]')
    .description(
      'remove old images (of one toolchain when named): keep the newest N per toolchain, or fit a disk budget (never an image a live run uses)',
    )
    .option('--keep <n>', 'images to keep per toolchain and kind (default 2 when no --budget)')
    .option('--budget <size>', 'remove the least recently used until the rest fit, e.g. 5g')
    .option('--dry-run', 'only say what would be removed')
    .option('--json', 'print JSON')
    .action(async (toolchain: string | undefined, opts: Record<string, unknown>) =>
      lazy('./commands/images.js', { ...opts, action: 'prune', toolchain }),
    );

  return program;
}

function parseNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`not a positive number: ${value}`);
  return n;
}

/** A command module: one default export that returns the exit code. */
export interface CommandModule {
  default: (opts: Record<string, unknown>) => Promise<number>;
}

async function lazy(module: string, opts: Record<string, unknown>): Promise<void> {
  const mod = (await import(module)) as CommandModule;
  process.exitCode = await mod.default(opts);
}
