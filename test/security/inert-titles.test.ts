// A plan's title is the model's words: `hammer-box plan` writes it, `run --plan` makes it the PR
// title. One holding a closing keyword, an @mention, HTML and a link must reach the PR title (as
// `--json` says it), PR_SUMMARY.md's heading, `gh pr create --title` and the commit messages inert:
// a squash merge closes no issue, nobody is pinged, nothing renders or links. The control: the fix
// lands and the pull request is opened, its title still readable.
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureGitEnv, tempDir } from '../helpers/fixture-repo.js';
import { answerWith, FIX_PATCH } from '../helpers/python-fixture.js';
import { attackFileHooks } from './support/hooks.js';
import { attack } from './support/record.js';
import { expectCanarySafe, expectNoLeftovers, outcomeOf } from './support/scene.js';

const PLAN = `# Plan: Fix add, closes #1 cc @octocat <img src=https://evil.example/p.png> [x](https://evil.example)

## Goal
Make add return a + b.

## Constraints
None.

## Files and functions
calc.py: add

## Steps
1. Fix add.

## Tests
python3 -m pytest -q
`;

/** What GitHub or GitLab would act on in a title (plain text, or a markdown heading). */
const LIVE = [
  /[<>]/,
  /@[A-Za-z0-9_-]/,
  /#\d/,
  /[a-z][a-z0-9+.-]*:\/\//i,
  /\bwww\./i,
  /\]\(/,
  /\b(close[sd]?|fix(e[sd])?|resolve[sd]?)\b:?\s+\S*#\d/i,
];

/** A fake gh: records its argv, prints a pull request's URL. */
const FAKE_GH = `#!${process.execPath}
const fs = require('node:fs');
process.stdin.resume();
process.stdin.on('end', () => {
  fs.appendFileSync(process.env.FAKE_FORGE_LOG, JSON.stringify(process.argv.slice(2)) + '\\n');
  // no pull request is open for the branch yet; creating one prints its URL
  if (process.argv[3] === 'list') process.stdout.write('[]\\n');
  if (process.argv[3] === 'create') process.stdout.write('https://github.com/acme/widgets/pull/7\\n');
});
`;

const hooks = attackFileHooks();

describe("a plan's title", () => {
  it('is inert in the PR title, PR_SUMMARY.md, the gh call and the commits; the fix lands and the PR opens', async () => {
    const s = await hooks.scene({ answers: [{ answer: answerWith(FIX_PATCH) }] });
    const dir = await tempDir('hb-titles-');
    hooks.cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const plan = join(dir, 'plan.md');
    await writeFile(plan, PLAN);
    const bin = join(dir, 'bin');
    await mkdir(bin);
    for (const tool of ['git', 'perl']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (found) await symlink(found, join(bin, tool));
    }
    await writeFile(join(bin, 'gh'), FAKE_GH);
    await chmod(join(bin, 'gh'), 0o755);
    const bare = join(dir, 'widgets.git');
    spawnSync('git', ['init', '--bare', '-q', bare], { env: fixtureGitEnv() });
    await s.fx.repo.git(['remote', 'add', 'origin', bare]);
    const log = join(dir, 'gh.log');
    const at = s.args.indexOf('--directive');
    s.args.splice(at, 2, '--plan', plan);
    s.args.push('--pr', '--forge', 'github', '--forge-repo', 'acme/widgets', '--json');
    Object.assign(s.env, { PATH: bin, FAKE_FORGE_LOG: log, GH_TOKEN: 'gho_notARealToken' });
    const out = await outcomeOf(s, await s.run());
    await attack(
      'a plan title with "closes #1", @octocat, <img> and links (PR title, PR_SUMMARY.md, gh, commits)',
      'inert everywhere; the fix lands and the pull request opens',
      async () => {
        expect(out.result.code, out.result.stderr.slice(-2000)).toBe(0);
        expect(out.state.status).toBe('stable');
        expect(out.state.directive.kind).toBe('plan');
        const doc = JSON.parse(out.result.stdout) as { pr_title: string; pull_request: { pull_request: unknown } };
        const calls = (await readFile(log, 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as string[]);
        const create = calls.find((c) => c[0] === 'pr' && c[1] === 'create');
        expect(create, 'gh pr create was called').toBeDefined();
        const ghTitle = create!.find((a) => a.startsWith('--title='))!.slice('--title='.length);
        const heading = out.summary.split('\n')[0]!;
        const messages = await s.fx.repo.git([
          'log',
          '--format=%B',
          `${out.state.repo.base_commit}..${out.state.branch!.commit}`,
        ]);
        for (const [where, text] of Object.entries({ pr_title: doc.pr_title, heading, gh: ghTitle, commits: messages }))
          for (const live of LIVE) expect(text, `${where}: ${live}`).not.toMatch(live);
        // control: readable, the same title everywhere, and the pull request was opened
        expect(doc.pr_title.startsWith('Fix add, closes ')).toBe(true);
        expect(ghTitle).toBe(doc.pr_title);
        expect(heading).toBe(`# ${doc.pr_title}`);
        expect(doc.pull_request.pull_request).toEqual({
          url: 'https://github.com/acme/widgets/pull/7',
          existing: false,
        });
        await expectNoLeftovers(out.runId);
        await expectCanarySafe(s, out);
        return `title: ${doc.pr_title.slice(0, 100)}`;
      },
    );
  });
});
