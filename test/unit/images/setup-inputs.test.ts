import { describe, expect, it } from 'vitest';
import { scanRequirements } from '../../../src/images/requirements-file.js';
import { nodeRunsCode, setupInputs, type TreeFile } from '../../../src/images/setup-inputs.js';

const oid = (n: number): string => String(n).padStart(40, '0');
const tree = (files: Record<string, string>) => {
  const list: TreeFile[] = Object.keys(files).map((path, i) => ({ path, oid: oid(i + 1) }));
  const read = async (paths: readonly string[]) => new Map(paths.filter((p) => p in files).map((p) => [p, files[p]!]));
  return { files: list, read, baseTree: 'f'.repeat(40) };
};

describe('scanRequirements', () => {
  it('follows -r and -c relative to the file, and flags lines that install from the repository', () => {
    expect(scanRequirements('requirements.txt', '-r requirements/base.txt\nrequests==2.0  # pinned\n')).toEqual({
      nested: ['requirements/base.txt'],
      local: null,
    });
    expect(
      scanRequirements('requirements/base.txt', '--constraint=../constraints.txt\n-r https://x/y.txt\n').nested,
    ).toEqual(['constraints.txt']);
    for (const line of [
      './vendor/pkg',
      '-e .',
      '--editable=./libs/x[extra]',
      'file:./third',
      'pkg @ file:///tmp/x',
      '-f ./wheels',
      '-r ../../outside.txt',
    ])
      expect(scanRequirements('requirements/base.txt', `${line}\n`).local, line).not.toBeNull();
    for (const line of [
      'requests[socks]>=2; python_version>"3"',
      '-e git+https://example.org/x.git#egg=x',
      'pkg @ https://x/p.whl',
      '--index-url https://i/simple',
      '-f https://x/wheels',
    ])
      expect(scanRequirements('requirements.txt', `${line}\n`).local, line).toBeNull();
  });

  it('joins continuation lines', () => {
    expect(scanRequirements('r.txt', '-r \\\n  other.txt\n').nested).toEqual(['other.txt']);
  });
});

describe('setupInputs', () => {
  it('python requirements: the key and the tree are the requirement files reached, at any depth', async () => {
    const t = tree({
      'requirements.txt': '-r requirements/base.txt\n',
      'requirements/base.txt': 'requests==2.0\n-c requirements/pins.txt\n',
      'requirements/requirements/pins.txt': 'urllib3<3\n',
      'app.py': 'print(1)\n',
    });
    const got = await setupInputs({ toolchain: 'python', custom: false, ...t });
    expect(got.tree).toEqual(['requirements.txt', 'requirements/base.txt', 'requirements/requirements/pins.txt']);
    expect(got.key.map((k) => k.path)).toEqual(got.tree);
    expect(got.wholeTreeReason).toBeNull();
  });

  it("python in a project's directory: its requirement files, not the root's", async () => {
    const t = tree({
      'requirements.txt': 'flask\n',
      'python/requirements.txt': '-r dev.txt\n',
      'python/dev.txt': 'pytest\n',
    });
    const got = await setupInputs({ toolchain: 'python', custom: false, ...t, dir: 'python' });
    expect(got.tree).toEqual(['python/dev.txt', 'python/requirements.txt']);
  });

  it('python: a nested local path, an included file outside the tree, or installing the project itself keys the whole tree', async () => {
    const local = tree({ 'requirements.txt': '-r requirements/base.txt\n', 'requirements/base.txt': './greet\n' });
    const missing = tree({ 'requirements.txt': '-r nowhere.txt\n' });
    const project = tree({ 'pyproject.toml': '[project]\nname="x"\n' });
    for (const t of [local, missing, project]) {
      const got = await setupInputs({ toolchain: 'python', custom: false, ...t });
      expect(got.tree).toBe('all');
      expect(got.key).toEqual([{ path: './', oid: t.baseTree }]);
      expect(got.wholeTreeReason).toBeTruthy();
    }
  });

  it('a configured setup command keys the whole tree, whatever the toolchain', async () => {
    const t = tree({ 'go.mod': 'module x\n' });
    expect((await setupInputs({ toolchain: 'go', custom: true, ...t })).tree).toBe('all');
  });

  it('node: every manifest and lockfile at any depth (never node_modules), unless npm would run repository code', async () => {
    const t = tree({
      'package.json': JSON.stringify({ workspaces: ['packages/*'], scripts: { test: 'node t.js' } }),
      'package-lock.json': '{}',
      'packages/a/package.json': JSON.stringify({ name: 'a' }),
      'node_modules/x/package.json': '{}',
      'index.js': '',
    });
    const got = await setupInputs({ toolchain: 'node', custom: false, ...t });
    expect(got.tree).toEqual(['package.json', 'package-lock.json', 'packages/a/package.json']);
    const scripted = tree({
      'package.json': '{}',
      'packages/a/package.json': JSON.stringify({ scripts: { postinstall: 'node x.js' } }),
    });
    expect((await setupInputs({ toolchain: 'node', custom: false, ...scripted })).tree).toBe('all');
  });

  it('go and rust receive the whole tree but are keyed by their manifests and lockfiles at any depth', async () => {
    const g = tree({ 'go.mod': '', 'go.sum': '', 'tools/go.mod': '', 'main.go': '' });
    const got = await setupInputs({ toolchain: 'go', custom: false, ...g });
    expect(got.tree).toBe('all');
    expect(got.key.map((k) => k.path)).toEqual(['go.mod', 'go.sum', 'tools/go.mod']);
    const r = tree({ 'Cargo.toml': '', 'crates/a/Cargo.toml': '', '.cargo/config.toml': '', 'src/lib.rs': '' });
    expect((await setupInputs({ toolchain: 'rust', custom: false, ...r })).key.map((k) => k.path)).toEqual([
      'Cargo.toml',
      'crates/a/Cargo.toml',
      '.cargo/config.toml',
    ]);
  });
});

describe('nodeRunsCode', () => {
  it('names install lifecycle scripts and local dependencies, not the test script', () => {
    expect(nodeRunsCode('package.json', JSON.stringify({ scripts: { test: 'x', build: 'y' } }))).toBeNull();
    expect(nodeRunsCode('package.json', JSON.stringify({ scripts: { prepare: 'x' } }))).toContain('"prepare"');
    expect(nodeRunsCode('package.json', JSON.stringify({ dependencies: { a: 'file:../a' } }))).toContain('file:../a');
    expect(nodeRunsCode('package.json', '{')).toContain('not valid JSON');
  });
});
