import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SENSITIVE_PATHS } from '../../../src/config/schema.js';
import { PACKAGE_JSON_CODE_FIELDS } from '../../../src/patch/package-json-policy.js';
import {
  globToRegExp,
  isPackageJson,
  normalPolicyPath,
  patchSizeRefusal,
  sensitiveMatcher,
} from '../../../src/patch/path-policy.js';

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

describe('the default sensitive paths', () => {
  const match = sensitiveMatcher(DEFAULT_SENSITIVE_PATHS);
  it.each([
    ['.github/workflows/ci.yml', '.github/**'],
    ['.gitlab-ci.yml', '.gitlab-ci.yml'],
    ['lefthook.yml', '**/lefthook.*'],
    ['pkg/.lefthook.yaml', '**/.lefthook.*'],
    ['lefthook-local.yml', '**/lefthook-local.*'],
    ['.lintstagedrc', '**/.lintstagedrc*'],
    ['web/.lintstagedrc.json', '**/.lintstagedrc*'],
    ['lint-staged.config.mjs', '**/lint-staged.config.*'],
    ['.githooks/pre-commit', '**/.githooks/**'],
    ['.husky/pre-commit', '**/.husky/**'],
    ['web/.husky/_/husky.sh', '**/.husky/**'],
    ['.simple-git-hooks.json', '**/.simple-git-hooks.*'],
    ['native/binding.gyp', '**/binding.gyp'],
    ['.npmrc', '**/.npmrc'],
    ['.yarnrc', '**/.yarnrc'],
    ['.yarnrc.yml', '**/.yarnrc.yml'],
    ['.yarn/releases/yarn-4.1.0.cjs', '**/.yarn/releases/**'],
    ['.pnpmfile.cjs', '**/.pnpmfile.cjs'],
    ['.vscode/tasks.json', '**/.vscode/tasks.json'],
    ['.cargo/config.toml', '**/.cargo/config.toml'],
    ['.envrc', '**/.envrc'],
    ['.lfsconfig', '**/.lfsconfig'],
    ['.hammer/config.toml', '.hammer/**'],
    ['.devcontainer.json', '**/.devcontainer.json'],
    ['web/.devcontainer/devcontainer.json', '**/.devcontainer/**'],
    ['.gitpod.yml', '.gitpod.yml'],
    ['.cirrus.star', '.cirrus.star'],
    ['.woodpecker.yaml', '.woodpecker.yaml'],
    ['app.code-workspace', '**/*.code-workspace'],
    ['.vscode/launch.json', '**/.vscode/launch.json'],
    ['.idea/runConfigurations/Tests.xml', '**/.idea/runConfigurations/**'],
    ['.teamcity/settings.kts', '.teamcity/**'],
    ['.builds/alpine.yml', '.builds/**'],
    ['bunfig.toml', '**/bunfig.toml'],
    ['gradle/wrapper/gradle-wrapper.properties', '**/gradle/wrapper/**'],
    ['.claude/settings.local.json', '**/.claude/settings*.json'],
  ])('%s is sensitive (%s)', (path, glob) => {
    expect(match(path)).toBe(glob);
  });

  it.each([
    ['.GITATTRIBUTES', '**/.gitattributes'],
    ['src/.GitModules', '**/.gitmodules'],
    ['.gitattributes.', '**/.gitattributes'],
    ['.gitmodules ', '**/.gitmodules'],
    ['GITMOD~1', '**/.gitmodules'],
    ['.git\u200cattributes', '**/.gitattributes'],
    ['.GitHub/workflows/x.yml', '.github/**'],
    ['LEFTHOOK.YML', '**/lefthook.*'],
  ])('git and the hook managers see %s as a sensitive file on a case-insensitive checkout', (path, glob) => {
    expect(match(path)).toBe(glob);
  });

  it.each([
    'src/app.py',
    'package.json',
    'README.md',
    'docs/lefthook.md.bak/x',
    '.vscode/extensions.json',
    'gyp.py',
    'docs/mise.md',
    'src/run.py',
    'cirrus.star',
  ])('%s is not', (path) => {
    expect(match(path)).toBeNull();
  });
});

describe('normalPolicyPath and isPackageJson', () => {
  it('names a path as a case-insensitive Windows or macOS checkout would', () => {
    expect(normalPolicyPath('Src/.GitAttributes. /X')).toBe('src/.gitattributes/x');
    expect(normalPolicyPath('**/.yarnrc*')).toBe('**/.yarnrc*');
  });
  it('finds package.json at any depth and in any case', () => {
    expect(isPackageJson('package.json')).toBe(true);
    expect(isPackageJson('web/Package.JSON')).toBe(true);
    expect(isPackageJson('package.json5')).toBe(false);
    expect(isPackageJson('mypackage.json')).toBe(false);
  });
});

describe('patchSizeRefusal', () => {
  it('refuses a patch over max_patch_bytes', () => {
    expect(patchSizeRefusal('x'.repeat(2000), { max_patch_bytes: 1024 })).toMatch(
      /2000 bytes, over the 1024-byte limit \(\[policy\] max_patch_bytes\)/,
    );
    expect(patchSizeRefusal('x'.repeat(1024), { max_patch_bytes: 1024 })).toBeNull();
  });
});

describe('the documented lists', () => {
  const security = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
  const spans = (tag: string): string[] => {
    const from = security.indexOf(`<!-- ${tag}:start -->`);
    const to = security.indexOf(`<!-- ${tag}:end -->`);
    expect(from, `docs/security.md has a ${tag} list`).toBeGreaterThan(0);
    return [...security.slice(from, to).matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  };

  it("docs/security.md's sensitive paths, configs/default.toml's and the code's are the same list", () => {
    expect(spans('sensitive-paths')).toEqual([...DEFAULT_SENSITIVE_PATHS]);
    const toml = parseToml(readFileSync(new URL('../../../configs/default.toml', import.meta.url), 'utf8')) as {
      policy: { sensitive_paths: string[] };
    };
    expect(toml.policy.sensitive_paths).toEqual([...DEFAULT_SENSITIVE_PATHS]);
  });

  it("docs/security.md's package.json fields are the code's", () => {
    expect(spans('package-json-fields')).toEqual([...PACKAGE_JSON_CODE_FIELDS]);
  });
});
