import { describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { pushArgs } from '../../../src/git/push-branch.js';
import { parseRemoteUrl, redact } from '../../../src/git/remote-url.js';

describe('parseRemoteUrl', () => {
  it('understands https, ssh, scp-like and local remotes', () => {
    expect(parseRemoteUrl('origin', 'https://github.com/acme/widgets.git')).toEqual({
      url: 'https://github.com/acme/widgets.git',
      transport: 'https',
      host: 'github.com',
      path: 'acme/widgets',
      display: 'https://github.com/acme/widgets.git',
    });
    expect(parseRemoteUrl('origin', 'git@github.com:acme/widgets.git')).toMatchObject({
      transport: 'ssh',
      host: 'github.com',
      path: 'acme/widgets',
      display: 'github.com:acme/widgets.git',
    });
    expect(parseRemoteUrl('origin', 'ssh://git@gitlab.example.com:2222/group/sub/p.git')).toMatchObject({
      transport: 'ssh',
      host: 'gitlab.example.com',
      path: 'group/sub/p',
    });
    expect(parseRemoteUrl('origin', '/srv/git/widgets.git')).toMatchObject({ transport: 'file', host: undefined });
    expect(parseRemoteUrl('origin', '../widgets.git')).toMatchObject({ transport: 'file' });
    expect(parseRemoteUrl('origin', 'file:///srv/git/widgets.git')).toMatchObject({ transport: 'file' });
    expect(parseRemoteUrl('origin', 'http://git.local:8080/x/y')).toMatchObject({
      transport: 'http',
      host: 'git.local:8080',
    });
  });

  it('never shows the credentials a URL holds', () => {
    const r = parseRemoteUrl('origin', 'https://oauth2:glpat-SECRET@gitlab.com/group/widgets.git');
    expect(r.display).toBe('https://gitlab.com/group/widgets.git');
    expect(r.host).toBe('gitlab.com');
    expect(redact('fatal: unable to access https://x:SECRET@h/p.git/: 403')).toBe(
      'fatal: unable to access https://h/p.git/: 403',
    );
  });

  it('refuses remote helpers, git://, and what could pass for an option', () => {
    for (const url of ['ext::sh -c touch% /tmp/pwned', 'fd::17', 'git://h/p.git', '-uhelp', 'foo://h/p', '']) {
      let err: unknown;
      try {
        parseRemoteUrl('evil', url);
      } catch (e) {
        err = e;
      }
      expect(isHammerError(err, 'REPO_INVALID'), url).toBe(true);
    }
  });
});

describe('pushArgs', () => {
  it("pushes exactly the branch, under its own name, over the URL's transport only, with no tags, hooks or submodules", () => {
    const args = pushArgs({ url: 'https://github.com/acme/widgets.git', transport: 'https' }, 'EngineerExternal/x', [
      ['credential.helper', 'store'],
    ]);
    expect(args).toEqual([
      '-c',
      'protocol.https.allow=always',
      '-c',
      'push.followTags=false',
      '-c',
      'push.gpgSign=false',
      '-c',
      'push.recurseSubmodules=no',
      '-c',
      'credential.helper=store',
      'push',
      '--porcelain',
      '--no-verify',
      '--no-follow-tags',
      '--no-signed',
      '--recurse-submodules=no',
      '--',
      'https://github.com/acme/widgets.git',
      'refs/heads/EngineerExternal/x:refs/heads/EngineerExternal/x',
    ]);
    expect(args.some((a) => a.startsWith('+') || a === '--force' || a === '--mirror' || a === '--tags')).toBe(false);
  });
});
