import { describe, expect, it } from 'vitest';
import {
  authStatusCall,
  boundedBody,
  forgeOfHost,
  manualCommand,
  MAX_BODY_BYTES,
  openCall,
  parseForgeRepo,
  projectOfRemote,
  pullRequestUrl,
  type PullRequestSpec,
} from '../../../src/forge/forge.js';
import { isHammerError } from '../../../src/errors.js';

const spec: PullRequestSpec = {
  project: { host: 'github.com', path: 'acme/widgets' },
  head: 'EngineerExternal/20261122T140501Z',
  base: 'main',
  title: "Fix the parser's dates",
  body: '## Summary\n\n--draft is not a flag here\n',
  draft: false,
};

describe('forgeOfHost: GitHub or GitLab from the remote host', () => {
  it('knows the public forges and hosts named after them', () => {
    expect(forgeOfHost('github.com')).toBe('github');
    expect(forgeOfHost('ssh.github.com')).toBe('github');
    expect(forgeOfHost('github.example.com')).toBe('github');
    expect(forgeOfHost('gitlab.com')).toBe('gitlab');
    expect(forgeOfHost('gitlab.example.org:8443')).toBe('gitlab');
    expect(forgeOfHost('code.gitlab-ee.example')).toBe('gitlab');
  });
  it('says nothing for other hosts and local paths', () => {
    expect(forgeOfHost('git.example.com')).toBeNull();
    expect(forgeOfHost('notgithub.com')).toBeNull();
    expect(forgeOfHost(undefined)).toBeNull();
  });
});

describe('the project', () => {
  it("comes from the remote's host and path", () => {
    expect(projectOfRemote('github.com', 'acme/widgets')).toEqual({ host: 'github.com', path: 'acme/widgets' });
    expect(projectOfRemote('gitlab.com', 'group/sub/project')).toEqual({
      host: 'gitlab.com',
      path: 'group/sub/project',
    });
    expect(projectOfRemote(undefined, 'srv/git/widgets')).toBeNull();
    expect(projectOfRemote('github.com', 'widgets')).toBeNull();
  });
  it("or from --forge-repo, whose host defaults to the remote's, else the public forge", () => {
    expect(parseForgeRepo('acme/widgets', 'github', undefined)).toEqual({ host: 'github.com', path: 'acme/widgets' });
    expect(parseForgeRepo('acme/widgets', 'gitlab', 'gitlab.example.com')).toEqual({
      host: 'gitlab.example.com',
      path: 'acme/widgets',
    });
    expect(parseForgeRepo('https://ghe.example.com/acme/widgets.git', 'github', undefined)).toEqual({
      host: 'ghe.example.com',
      path: 'acme/widgets',
    });
    expect(parseForgeRepo('group/sub/project', 'gitlab', undefined)).toEqual({
      host: 'gitlab.com',
      path: 'group/sub/project',
    });
  });
  it('refuses a --forge-repo that is not [host/]owner/repository', () => {
    for (const bad of ['widgets', 'acme/../etc', 'acme/wid gets', '--help/x']) {
      let err: unknown;
      try {
        parseForgeRepo(bad, 'github', undefined);
      } catch (e) {
        err = e;
      }
      expect(isHammerError(err, 'USAGE'), bad).toBe(true);
    }
  });
});

describe('the gh and glab calls', () => {
  it('gh: the pull request with every value as one --flag=value word and the body on stdin', () => {
    expect(openCall('github', spec)).toEqual({
      tool: 'gh',
      args: [
        'pr',
        'create',
        '--repo=github.com/acme/widgets',
        '--head=EngineerExternal/20261122T140501Z',
        '--base=main',
        "--title=Fix the parser's dates",
        '--body-file=-',
      ],
      stdin: spec.body,
    });
    expect(openCall('github', { ...spec, base: null, draft: true }).args).toEqual([
      'pr',
      'create',
      '--repo=github.com/acme/widgets',
      '--head=EngineerExternal/20261122T140501Z',
      "--title=Fix the parser's dates",
      '--body-file=-',
      '--draft',
    ]);
  });

  it('glab: the merge request by the project URL, the body as the description, no prompt', () => {
    const gl = { ...spec, project: { host: 'gitlab.example.com', path: 'group/widgets' }, draft: true };
    expect(openCall('gitlab', gl)).toEqual({
      tool: 'glab',
      args: [
        'mr',
        'create',
        '--repo=https://gitlab.example.com/group/widgets',
        '--source-branch=EngineerExternal/20261122T140501Z',
        '--target-branch=main',
        "--title=Fix the parser's dates",
        `--description=${spec.body}`,
        '--draft',
        '--yes',
      ],
      stdin: '',
    });
  });

  it('asks each tool whether it is logged in to the host', () => {
    expect(authStatusCall('github', 'github.com')).toEqual({
      tool: 'gh',
      args: ['auth', 'status', '--hostname', 'github.com'],
      stdin: '',
    });
    expect(authStatusCall('gitlab', 'gitlab.example.org:8443').args).toEqual([
      'auth',
      'status',
      '--hostname',
      'gitlab.example.org',
    ]);
  });

  it('prints the same calls as commands to paste, quoted for a shell', () => {
    const body = 'hammer-box runs show 20261122T140501Z-k3b7qa --repo /src/p --pr-body';
    expect(manualCommand('github', { ...spec, draft: true }, body)).toBe(
      `${body} | gh pr create --repo github.com/acme/widgets --head EngineerExternal/20261122T140501Z --base main --title 'Fix the parser'\\''s dates' --body-file - --draft`,
    );
    expect(manualCommand('gitlab', { ...spec, base: null, project: { host: 'gitlab.com', path: 'g/w' } }, body)).toBe(
      `glab mr create --repo https://gitlab.com/g/w --source-branch EngineerExternal/20261122T140501Z --title 'Fix the parser'\\''s dates' --description "$(${body})" --yes`,
    );
  });

  it('finds the URL the tool printed', () => {
    expect(pullRequestUrl('https://github.com/acme/widgets/pull/7\n')).toBe('https://github.com/acme/widgets/pull/7');
    expect(pullRequestUrl('\n!5 Fix (branch)\n https://gitlab.com/g/w/-/merge_requests/5\n')).toBe(
      'https://gitlab.com/g/w/-/merge_requests/5',
    );
    expect(pullRequestUrl('nothing')).toBeNull();
  });
});

describe('boundedBody', () => {
  it('keeps a body that fits and cuts a longer one at a line end, saying where the rest is', () => {
    expect(boundedBody('short\n', 'x')).toBe('short\n');
    const long = `${'a line of the summary\n'.repeat(4000)}`;
    const cut = boundedBody(long, '/r/PR_SUMMARY.md');
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(cut).toMatch(/a line of the summary\n\n… \(cut at 60,000 bytes; the whole text is \/r\/PR_SUMMARY\.md\)\n$/);
  });
});
