import { describe, expect, it } from 'vitest';
import { memberDirs, workspacePatterns, workspaceTestCommand } from '../../../src/images/node-workspace.js';

const pnpm = { name: 'pnpm', flavour: null, testCommand: 'pnpm test' };
const pkg = (value: unknown): string => JSON.stringify(value);

describe('a Node.js workspace', () => {
  it("reads pnpm-workspace.yaml's packages, and npm's and yarn's workspaces field", () => {
    expect(
      workspacePatterns(undefined, 'packages:\n  - library\n  - \'packages/*\'\n  - "!**/test/**" # no\nother: 1\n'),
    ).toEqual(['library', 'packages/*', '!**/test/**']);
    expect(workspacePatterns(undefined, 'packages: [a, "b/*"]\n')).toEqual(['a', 'b/*']);
    expect(workspacePatterns(pkg({ workspaces: ['packages/*'] }), undefined)).toEqual(['packages/*']);
    expect(workspacePatterns(pkg({ workspaces: { packages: ['apps/**'] } }), undefined)).toEqual(['apps/**']);
    expect(workspacePatterns(pkg({ name: 'x' }), undefined)).toEqual([]);
  });

  it('finds the members: directories with a package.json the patterns match, never under node_modules or with shell syntax', () => {
    const paths = [
      'package.json',
      'library/package.json',
      'packages/a/package.json',
      'packages/b/package.json',
      'packages/b/test/fixture/package.json',
      'packages/$(id)/package.json',
      'node_modules/x/package.json',
    ];
    expect(memberDirs(['library', 'packages/*', '!packages/b'], paths)).toEqual(['library', 'packages/a']);
    expect(memberDirs(['packages/**'], paths)).toEqual(['packages/a', 'packages/b']);
  });

  it('a root without a test script: the member the directive points into runs its own tests (valibot)', () => {
    const facts = {
      rootPackageJson: pkg({ name: 'root', private: true }),
      pnpmWorkspaceYaml: 'packages:\n  - library\n  - website\n',
      paths: ['package.json', 'library/package.json', 'library/src/calc.ts', 'website/package.json'],
      memberPackageJson: new Map([
        ['library/package.json', pkg({ name: 'valibot', scripts: { test: 'vitest run' } })],
        ['website/package.json', pkg({ name: 'site', scripts: { test: 'vitest run' } })],
      ]),
    };
    expect(workspaceTestCommand(facts, pnpm, 'parse() in library/src/calc.ts is wrong')).toEqual({
      command: 'cd library && pnpm test',
      member: 'library',
      why: 'the workspace root has no test script; the directive points at its member library/',
    });
    expect(workspaceTestCommand(facts, pnpm, 'valibot rejects a valid email')?.member).toBe('library');
    // nothing pointed at: every member's tests, through the root's recursive form
    expect(workspaceTestCommand(facts, pnpm, 'something is wrong')?.command).toBe('pnpm -r test');
    expect(workspaceTestCommand(facts, { name: 'npm', flavour: null, testCommand: 'npm test' }, '')?.command).toBe(
      'npm test --workspaces --if-present',
    );
    // one member with tests: that one
    const one = { ...facts, memberPackageJson: new Map([['library/package.json', pkg({ scripts: { test: 'x' } })]]) };
    expect(workspaceTestCommand(one, pnpm, '')?.command).toBe('cd library && pnpm test');
    // a root with a test script of its own decides
    expect(
      workspaceTestCommand({ ...facts, rootPackageJson: pkg({ scripts: { test: 'pnpm -r test' } }) }, pnpm, ''),
    ).toBeNull();
  });
});
