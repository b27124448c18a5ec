// The command-line surface. Each command's module is imported only when it runs, so --help is instant.
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseAge } from './parse-age.js';

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
    // a command's options go after its name (so a command and its subcommand may share one, as chat and chat list do)
    .enablePositionalOptions()
    .configureHelp({ sortSubcommands: false });

  const run = program
    .command('run')
    .description('run the loop: generate a patch, check and apply it in the sandbox, test, repeat until the tests pass')
    .option('--repo <path>', 'the git repository to work on (never modified except for one new branch)', '.')
    .addOption(
      new Option(
        '--directive <file>',
        'required unless -m or --plan: a text file saying what to do, or - to read it from stdin',
      ).conflicts(['message', 'plan']),
    )
    .addOption(new Option('-m, --message <text>', 'the directive as text, instead of --directive').conflicts('plan'))
    .option('--plan <file>', 'a plan (written by hammer-box plan, edited by you) as the directive, recorded as a plan')
    .option(
      '--base <ref>',
      'branch, tag or commit to start from (default: the checked-out branch, else the commit HEAD points at)',
    )
    .addOption(
      new Option('--toolchain <name>', 'toolchain image to test in (default: detected from the repository)').conflicts(
        'image',
      ),
    )
    .addOption(
      new Option(
        '--toolchain-version <version>',
        "the toolchain's version instead of the one the repository declares (e.g. 22, 1.25)",
      ).conflicts('image'),
    )
    .option('--image <ref>', 'your own image instead of a toolchain image (must meet the image contract)')
    .option('--test-command <cmd>', "the test command, run with sh -c in /workspace (default: the toolchain's)")
    .option('--test-timeout <seconds>', 'wall-clock limit of one test run (default: 300)', parseNumber)
    .option('--max-iterations <n>', 'stop after this many model answers (default: 10)', parseNumber)
    .option('--max-diff-lines <n>', 'refuse patches longer than this (default: 500)', parseNumber)
    .addOption(
      new Option(
        '--mode <mode>',
        'diff: the model answers each iteration with a diff; agent: it works in the sandbox with a shell and an editor, then submits (default: diff)',
      ).choices(['diff', 'agent']),
    )
    .option('--keep-empty-branch', 'make the branch even when no patch was applied (default: no branch then)')
    .option(
      '--trusted-repo',
      'the repository is yours: run even where the backend cannot prove the sandbox has no network (default: refuse)',
    );
  engineOptions(run);
  modelOptions(run)
    .option('--config <file>', 'a TOML config file (see configs/default.toml)')
    .option('--json', 'print one JSON document with the result on stdout')
    .option('-q, --quiet', 'no progress on stderr: only the result, warnings and errors')
    .option(
      '--verbose',
      "also say which Docker engine the run uses and why (DOCKER_HOST, a docker context, a socket), and an error's raw cause",
    )
    .addOption(
      new Option('--log-level <level>', 'level of the run log (events.ndjson)')
        .choices(['trace', 'debug', 'info', 'warn', 'error'])
        .default('info'),
    );
  run.option('--pr', "when the run made a branch, push it and open its pull request (as 'hammer-box pr')");
  pullRequestOptions(run);
  example(
    run,
    'hammer-box run --repo ~/src/myproject --directive fix-the-parser.md',
    'hammer-box run --repo . -m "make the failing date parsing tests pass"',
    'hammer-box run --repo . --plan plan.md --mode agent',
    'hammer-box run --repo . -m "fix the parser" --pr --remote origin',
  );
  run.action(async (opts: Record<string, unknown>) => lazy('./commands/run.js', opts));

  const replay = program
    .command('replay [run_id]')
    .description(
      "run again with the model's recorded answers from an earlier run, to reproduce it exactly; says whether every phase reproduced and where it diverged",
    )
    .option('--repo <path>', 'the repository the run belongs to', '.')
    .option('--last', 'the latest run (instead of a run id)')
    .option('--config <file>', 'a TOML config file (the run record never sets limits, policy or where things go)')
    .option('--json', 'print one JSON document with the result on stdout')
    .option('-q, --quiet', 'no progress on stderr: only the result, warnings and errors');
  example(replay, 'hammer-box replay 20261122T140501Z-k3b7qa --repo ~/src/myproject', 'hammer-box replay --last');
  replay.action(async (runId: string | undefined, opts: Record<string, unknown>) =>
    lazy('./commands/replay.js', { ...opts, runId }),
  );
  const verify = program
    .command('verify [run_or_branch]')
    .description(
      'do a run again in the image it recorded (offline, with its recorded answers, no branch delivered) and say whether its verdict reproduces: the outcome, and the tests that failed and passed at the baseline and the end; exit 1 when it changed',
    )
    .option('--last', 'the latest run')
    .option('--repo <path>', 'the repository the run belongs to', '.')
    .option('--config <file>', 'a config file, as run takes it')
    .option('--rebuild', "when the recorded image is gone, make it again from the run's locks instead of refusing")
    .option('--json', 'print the report as JSON')
    .option('-q, --quiet', 'no progress');
  example(verify, 'hammer-box verify 20261122T140501Z-k3b7qa', 'hammer-box verify hammer/20261122T140512Z --rebuild');
  verify.action(async (target: string | undefined, opts: Record<string, unknown>) =>
    lazy('./commands/verify.js', { ...opts, target }),
  );

  const resume = modelOptions(
    program
      .command('resume [run_id]')
      .description(
        'continue a run that was interrupted, killed or broke, from its last completed phase; the model, limits and policy come from your current configuration (--config, environment, flags), never the run record; --provider, --model and --llm-url override them for the rest of the run',
      )
      .option('--repo <path>', 'the repository the run belongs to', '.')
      .option('--last', 'the latest run (instead of a run id)')
      .option(
        '--config <file>',
        'a TOML config file (the model, limits and policy come from your config, not the run record)',
      )
      .option('--json', 'print one JSON document with the result on stdout')
      .option('-q, --quiet', 'no progress on stderr: only the result, warnings and errors')
      .option('--verbose', "also say which Docker engine the run uses and why, and an error's raw cause")
      .option('--trusted-repo', 'run even where the backend cannot prove the sandbox has no network'),
  );
  engineOptions(resume);
  example(
    resume,
    'hammer-box resume 20261122T140501Z-k3b7qa --repo ~/src/myproject',
    'hammer-box resume 20261122T140501Z-k3b7qa --config ~/hammer.toml --llm-url http://gpu-box:11434',
  );
  resume.action(async (runId: string | undefined, opts: Record<string, unknown>) =>
    lazy('./commands/resume.js', { ...opts, runId }),
  );

  const chat = program
    .command('chat')
    // its options before `list`, so `chat list --repo x` is list's own --repo
    .enablePositionalOptions()
    .description(
      "talk with the model about a repository: it reads, runs commands and edits in a sandbox of the committed tip (agent mode's tools and gates); /help inside lists the commands",
    )
    .option('--repo <path>', 'the git repository', '.')
    .addOption(
      new Option(
        '--continue [id]',
        'continue the last conversation (or this one): its messages, and the sandbox rebuilt from its base and its change',
      ).conflicts('new'),
    )
    .option('--new', 'start a new conversation (the default)')
    .option('--plan', 'start in read-only mode (/plan)')
    .option('--base <ref>', 'branch, tag or commit to start from (default: the checked-out branch, else HEAD)')
    .addOption(
      new Option('--mode <mode>', 'how a run started with /run makes its changes (default: diff)').choices([
        'diff',
        'agent',
      ]),
    );
  modelOptions(chat).option('--config <file>', 'a TOML config file (see configs/default.toml)');
  example(chat, 'hammer-box chat --repo ~/src/myproject', 'hammer-box chat --repo . --continue');
  chat.action(async (opts: Record<string, unknown>) => lazy('./commands/chat.js', opts));
  const chatList = chat
    .command('list')
    .description("the repository's conversations, the latest first")
    .option('--repo <path>', 'the repository', '.')
    .option('--json', 'print JSON');
  example(chatList, 'hammer-box chat list --repo ~/src/myproject');
  chatList.action(async (opts: Record<string, unknown>) => lazy('./commands/chat-list.js', opts));

  const plan = program
    .command('plan')
    .description(
      'let the model read and run (never change) the repository and write a plan: goal, constraints, files and functions, numbered steps, the tests that should pass; then run it with run --plan',
    )
    .option('--repo <path>', 'the git repository', '.')
    .requiredOption('-m, --message <goal>', 'required: the goal')
    .option('-c, --constraint <text>', 'a constraint the plan must keep (repeatable)', collect, [])
    .option('--out <file>', 'where the plan goes', 'plan.md')
    .option('--force', 'replace --out when it exists')
    .option('--edit', 'open the plan in $VISUAL or $EDITOR once it is written')
    .option('--base <ref>', 'branch, tag or commit to start from (default: the checked-out branch, else HEAD)');
  modelOptions(plan)
    .option('--config <file>', 'a TOML config file (see configs/default.toml)')
    .option('-q, --quiet', 'no progress on stderr: only the plan on stdout');
  example(
    plan,
    'hammer-box plan --repo . -m "make date parsing accept ISO weeks" -c "keep the public API"',
    'hammer-box run --repo . --plan plan.md',
  );
  plan.action(async (opts: Record<string, unknown>) => lazy('./commands/plan.js', opts));
  const batch = program
    .command('batch')
    .argument('<tasks-file>', 'a JSONL file: one task per line (see docs/running.md for the fields)')
    .description(
      'run many tasks, each attempt an ordinary run in a repository of its own under --out; write report.json and report.md as tasks finish',
    )
    .option('--out <dir>', 'required: the batch directory (report, and one directory per task attempt)')
    .option('--jobs <n>', 'attempts (sandboxes) at once', parsePositiveInt, 2)
    .option(
      '--model-jobs <n>',
      'model requests at once, over all attempts (Ollama answers one at a time)',
      parsePositiveInt,
      1,
    )
    .option('--task-timeout <seconds>', 'a task\'s wall-clock limit unless it sets "timeout"', parseNumber, 3600)
    .option('--resume', 'continue the batch in --out: tasks whose attempts finished are skipped')
    .option(
      '--retry <kinds>',
      'with --resume: run again the attempts that ended in these (comma-separated): infra, model, timeout, setup',
    )
    .option('--max-iterations <n>', 'stop each run after this many model answers (default: 10)', parseNumber);
  modelOptions(batch)
    .option('--config <file>', "a TOML config file, for every run (a task's own fields override it)")
    .option('--json', 'print report.json on stdout at the end')
    .option('-q, --quiet', 'no progress on stderr: only the result, warnings and errors')
    .addOption(
      new Option('--log-level <level>', 'level of each run log (events.ndjson)')
        .choices(['trace', 'debug', 'info', 'warn', 'error'])
        .default('info'),
    );
  example(
    batch,
    'hammer-box batch tasks.jsonl --out results/qwen --jobs 4',
    'hammer-box batch tasks.jsonl --out results/qwen --resume --retry infra',
    'hammer-box batch compare results/qwen results/llama',
  );
  batch.action(async (tasksFile: string, opts: Record<string, unknown>) =>
    lazy('./commands/batch.js', { ...opts, tasksFile }),
  );
  const batchCompare = batch
    .command('compare <a> <b>')
    .description('compare two batches task by task: solved by both, only A, only B, neither; pass@k when attempts > 1')
    .option('--json', 'print JSON');
  example(batchCompare, 'hammer-box batch compare results/qwen results/llama');
  // `batch` has a --json of its own, which commander gives the parent wherever it is written
  batchCompare.action(async (a: string, b: string, opts: Record<string, unknown>) =>
    lazy('./commands/batch-compare.js', {
      ...opts,
      json: opts['json'] === true || batch.opts()['json'] === true,
      a,
      b,
    }),
  );

  const runs = program
    .command('runs')
    .description('list and inspect runs of a repository (alone: list them)')
    // `runs --repo x` is `runs list --repo x`
    .enablePositionalOptions(false);
  const runsList = runs
    .command('list', { isDefault: true })
    .description('list runs, newest first (the default: `hammer-box runs` alone lists)')
    .option('--repo <path>', 'the repository', '.')
    .option('--json', 'print JSON');
  example(runsList, 'hammer-box runs list --repo ~/src/myproject', 'hammer-box runs');
  runsList.action(async (opts: Record<string, unknown>) => lazy('./commands/runs-list.js', opts));
  const runsShow = runs
    .command('show [run_id]')
    .description("show a run's state and where its files are")
    .option('--repo <path>', 'the repository', '.')
    .option('--last', 'the latest run (instead of a run id)')
    .addOption(new Option('--json', 'print the state file as JSON').conflicts('prBody'))
    .option('--pr-body', "print the pull request's body (PR_SUMMARY.md without its title) for gh pr create");
  example(
    runsShow,
    'hammer-box runs show 20261122T140501Z-k3b7qa --repo ~/src/myproject',
    'hammer-box runs show k3b7 --repo ~/src/myproject   # the letters after the dash, or the start of the id',
    'hammer-box runs show 20261122T140501Z-k3b7qa --pr-body | gh pr create --title "Fix the parser" --body-file -',
  );
  runsShow.action(async (runId: string | undefined, opts: Record<string, unknown>) =>
    lazy('./commands/runs-show.js', { ...opts, runId }),
  );

  const runsPrune = runs
    .command('prune')
    .description(
      "remove old runs' files (with --branches, the branches they made too, while exactly as the run left them and on no remote); never a live run. Without --keep or --older-than it only lists what --keep 10 would remove",
    )
    .option('--repo <path>', 'the repository', '.')
    .option('--keep <n>', 'keep the newest n runs, remove the rest', parseCount)
    .option('--older-than <age>', 'remove only runs older than this: 30m, 12h, 7d, 2w', parseAge)
    .option(
      '--branches',
      "remove the runs' branches too (never one that moved, is checked out, or was pushed to a remote)",
    )
    .option('--dry-run', 'only say what would be removed')
    .option('--json', 'print JSON');
  example(
    runsPrune,
    'hammer-box runs prune --repo ~/src/myproject   # lists what it would remove',
    'hammer-box runs prune --older-than 7d --branches',
  );
  runsPrune.action(async (opts: Record<string, unknown>) => lazy('./commands/runs-prune.js', opts));

  const monitor = program
    .command('monitor')
    .description(
      'watch and read runs in a browser, live: a read-only page served on 127.0.0.1 (or, with --bundle, written as static files)',
    )
    .option('--repo <path>', 'the repository whose runs to show (default: . unless --dir is given)')
    .option('--dir <path>', 'a directory holding runs (a batch directory, a copied .hammer); repeatable', collect, [])
    .option('--port <n>', 'the port on 127.0.0.1 (default: a free one)', parsePort)
    .option('--open', 'open the page in your browser')
    .option('--bundle <dir>', 'write the pages as static files into <dir> instead of serving them')
    .option('--run <run_id>', 'only this run (with --bundle), or open on its page');
  example(
    monitor,
    'hammer-box monitor --repo ~/src/myproject --open',
    'hammer-box monitor --repo . --bundle monitor-pages   # then open monitor-pages/index.html',
  );
  monitor.action(async (opts: Record<string, unknown>) => lazy('./commands/monitor.js', opts));

  const pr = program
    .command('pr [run_id]')
    .description(
      "push the run's branch (and nothing else) to a remote and open a pull request with the run's title and PR_SUMMARY.md, through gh or glab (a draft when the tests do not pass); without them, print the command that opens it",
    )
    .option('--repo <path>', 'the repository the run belongs to', '.')
    .option('--last', 'the latest run (instead of a run id)')
    .option('--base <branch>', "the branch to merge into (default: the run's base branch, else the project's default)")
    .option('--json', 'print JSON');
  pullRequestOptions(pr);
  example(
    pr,
    'hammer-box pr 20261122T140501Z-k3b7qa --repo ~/src/myproject',
    'hammer-box pr 20261122T140501Z-k3b7qa --remote fork --forge github --forge-repo me/myproject',
  );
  pr.action(async (runId: string | undefined, opts: Record<string, unknown>) =>
    lazy('./commands/pr.js', { ...opts, runId }),
  );

  const tools = program.command('tools').description('the whitelisted tools the loop may run inside the sandbox');
  const toolsList = tools
    .command('list')
    .description('list tools with their JSON contracts (plugins from [tools] plugins included)')
    .option('--config <file>', 'a TOML config file (for [tools] plugins)')
    .option('--json', 'print JSON');
  example(toolsList, 'hammer-box tools list --json');
  toolsList.action(async (opts: Record<string, unknown>) => lazy('./commands/tools-list.js', opts));

  const doctor = program
    .command('doctor')
    .description('check the engine and its security options, the images, and the model server')
    .option('--config <file>', 'a TOML config file')
    .option('--repo <path>', 'a repository whose .hammer/config.toml to include');
  engineOptions(doctor);
  modelOptions(doctor).option('--json', 'print JSON');
  example(
    doctor,
    'hammer-box doctor --provider openai --llm-url http://localhost:8000/v1 --model my-model',
    'hammer-box doctor --engine kubernetes --kube-context kind-hammer',
  );
  doctor.action(async (opts: Record<string, unknown>) => lazy('./commands/doctor.js', opts));

  const gc = program
    .command('gc')
    .description(
      'remove sandbox containers and volumes (or pods and network policies) of runs that are no longer alive',
    )
    .option('--config <file>', 'a TOML config file (for [kubernetes])')
    .option(
      '--run <run_id...>',
      'remove everything these runs made, their process alive or not (the command a run that left a sandbox behind prints)',
    )
    .option('--json', 'print JSON');
  engineOptions(gc);
  example(gc, 'hammer-box gc', 'hammer-box gc --engine kubernetes', 'hammer-box gc --run 20261122T140501Z-k3b7qa');
  gc.action(async (opts: Record<string, unknown>) => lazy('./commands/gc.js', opts));

  const images = program.command('images').description('build and list sandbox images (no registry needed)');
  const bootstrap = images
    .command('bootstrap')
    .description('make the base image: pull debian:trixie-slim, or build it with debootstrap');
  example(bootstrap, 'hammer-box images bootstrap');
  bootstrap.action(async (opts: Record<string, unknown>) =>
    lazy('./commands/images.js', { ...opts, action: 'bootstrap' }),
  );
  const build = images
    .command('build [toolchain]')
    .description(
      'build toolchain images, each at its default version, or one (name@version for another version, e.g. node@22); content-addressed: unchanged images are not rebuilt',
    );
  build.option(
    '--lock <file>',
    "rebuild the one toolchain named from a lock ('images show --json' prints one): exactly its Debian packages and toolchain, or IMAGE_BUILD_FAILED naming what the archive no longer serves",
  );
  example(build, 'hammer-box images build python', 'hammer-box images build python --lock python-lock.json');
  build.action(async (toolchain: string | undefined, opts: Record<string, unknown>) =>
    lazy('./commands/images.js', { ...opts, action: 'build', toolchain }),
  );
  const imagesList = images
    .command('list')
    .description('list hammer-box images: size, created, last used and by which runs')
    .option('--json', 'print JSON');
  example(imagesList, 'hammer-box images list');
  imagesList.action(async (opts: Record<string, unknown>) => lazy('./commands/images.js', { ...opts, action: 'list' }));
  const prune = images
    .command('prune [toolchain]')
    .description(
      'remove old images (of one toolchain when named): keep the newest N per toolchain, or fit a disk budget (never an image a live run uses)',
    )
    .option('--keep <n>', 'images to keep per toolchain and kind (default 2 when no --budget)')
    .option('--budget <size>', 'remove the least recently used until the rest fit, e.g. 5g')
    .option('--dry-run', 'only say what would be removed')
    .option('--json', 'print JSON');
  example(prune, 'hammer-box images prune --budget 10g --dry-run');
  const push = images
    .command('push [images...]')
    .description(
      "tag hammer-box's toolchain and env images (or the images named) under a registry and push them there, for the Kubernetes backend",
    )
    .requiredOption('--registry <host/prefix>', 'required: the registry, e.g. registry.example.com:5000/hammer')
    .option('--json', 'print JSON');
  example(push, 'hammer-box images push --registry localhost:5000/hammer');
  push.action(async (refs: string[], opts: Record<string, unknown>) =>
    lazy('./commands/images.js', { ...opts, action: 'push', refs }),
  );
  prune.action(async (toolchain: string | undefined, opts: Record<string, unknown>) =>
    lazy('./commands/images.js', { ...opts, action: 'prune', toolchain }),
  );
  const show = images
    .command('show <image>')
    .description(
      'print what went into a toolchain or env image (its lock: Debian packages, toolchain version and checksum, dependencies, what it was made from) and whether it drifted from the first lock this machine saw for its key',
    )
    .option('--json', 'print JSON (its "lock" is what `images build --lock` takes)');
  example(show, 'hammer-box images show hammer-box/python:3f2a9c1d7b6e');
  show.action(async (ref: string, opts: Record<string, unknown>) =>
    lazy('./commands/images-locks.js', { ...opts, action: 'show', ref }),
  );
  const exportCmd = images
    .command('export [images...]')
    .description(
      "write images to one archive (docker save's format), each with the toolchain image and base it was made from, for a CI cache or another machine",
    )
    .requiredOption('-o, --out <file>', 'required: the archive to write')
    .option('--for-repo <path>', 'the images a run of this repository uses (made first when missing)')
    .option('--config <file>', 'a config file, as run takes it (with --for-repo)')
    .option('--json', 'print JSON');
  example(exportCmd, 'hammer-box images export --for-repo . -o hammer-images.tar');
  exportCmd.action(async (refs: string[], opts: Record<string, unknown>) =>
    lazy('./commands/images-locks.js', { ...opts, action: 'export', refs }),
  );
  const importCmd = images
    .command('import <file>')
    .description(
      "load an archive 'images export' wrote, after checking it: hammer-box's tags only, keys and locks that match, and every image it was made from present; a tag the engine held with another image is replaced and its lock's differences reported",
    )
    .option('--json', 'print JSON');
  example(importCmd, 'hammer-box images import hammer-images.tar');
  importCmd.action(async (file: string, opts: Record<string, unknown>) =>
    lazy('./commands/images-locks.js', { ...opts, action: 'import', file }),
  );

  seeHelpAfterErrors(program, []);
  return program;
}

/** After a usage error, each command names the help that lists its options. */
function seeHelpAfterErrors(cmd: Command, path: string[]): void {
  const words = ['hammer-box', ...path, '--help'].join(' ');
  cmd.showHelpAfterError(`(see '${words}')`);
  for (const sub of cmd.commands) seeHelpAfterErrors(sub, [...path, sub.name()]);
}

/** --remote, --forge, --forge-repo and --pr-body: where `pr` (and `run --pr`) pushes and opens the pull request. */
function pullRequestOptions(cmd: Command): Command {
  return cmd
    .option('--remote <name>', 'the remote to push the branch to (default: origin)')
    .addOption(
      new Option(
        '--forge <name>',
        "GitHub (gh) or GitLab (glab) (default: from the remote's host: github.com or *github*, gitlab.com or *gitlab*)",
      ).choices(['github', 'gitlab']),
    )
    .option(
      '--forge-repo <[host/]owner/repo>',
      "the project on the forge, when the remote's URL does not name it (a local path, an ssh alias)",
    )
    .option(
      '--pr-body <file>',
      "the pull request's body from this file instead of PR_SUMMARY.md (at most 60,000 bytes)",
    );
}

/** --engine and --kube-context: which backend runs the sandboxes (config keys sandbox.engine, kubernetes.context). */
function engineOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('--engine <name>', 'where sandboxes run (default: [sandbox] engine, docker)').choices([
        'docker',
        'kubernetes',
      ]),
    )
    .option('--kube-context <name>', "the kubeconfig's context for --engine kubernetes (default: its current context)");
}

/** --provider, --model and --llm-url: the model server to use (config keys model.provider, .name, .url). */
function modelOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('--provider <name>', 'model provider (default: ollama)').choices(['ollama', 'openai', 'replay']),
    )
    .option('--model <name>', 'model name (default: qwen3-coder:30b)')
    .option(
      '--llm-url <url>',
      'model server URL (default: OLLAMA_HOST / OPENAI_BASE_URL, else http://localhost:11434)',
    );
}

/** Show an example under the command's help. */
function example(cmd: Command, ...lines: string[]): void {
  cmd.addHelpText('after', `\nExample:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/** Each value of a repeatable option, in order. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A TCP port, 0 for any free one. */
function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError(`not a port number: ${value}`);
  return Number(value);
}

/** A whole number >= 0. */
function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`not a whole number: ${value}`);
  return Number(value);
}

/** A whole number >= 1. */
function parsePositiveInt(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError(`not a whole number >= 1: ${value}`);
  return Number(value);
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
