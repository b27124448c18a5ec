import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { setupEnvironment } from '../../../src/images/env-image.js';
import { choosePackageManager } from '../../../src/images/node-package-manager.js';
import { planPython } from '../../../src/images/python-setup.js';
import { defaultSetupCommand, setupRecipe, setupScript } from '../../../src/images/setup-plan.js';

describe('defaultSetupCommand', () => {
  it.each([
    ['python', ['requirements.txt', 'setup.py'], 'python3 -m pip install -r requirements.txt'],
    [
      'python',
      ['requirements.txt', 'requirements-test.txt'],
      'python3 -m pip install -r requirements.txt -r requirements-test.txt',
    ],
    ['python', ['pyproject.toml'], "python3 -m pip install -e '.[test]'"],
    ['python', ['calc.py'], ''],
    ['node', ['package.json', 'package-lock.json'], 'npm ci'],
    ['node', ['package.json'], ''],
    ['node', ['package.json', 'pnpm-lock.yaml'], 'pnpm install --frozen-lockfile'],
    ['go', ['go.mod'], 'go mod download'],
    ['rust', ['Cargo.toml'], 'cargo fetch'],
  ])('%s with %j: %j', (toolchain, files, command) => {
    const pm = toolchain === 'node' ? choosePackageManager(files, new Map()) : undefined;
    expect(defaultSetupCommand(toolchain, files, pm ? { packageManager: pm } : {})).toBe(command);
  });
});

describe('setupRecipe', () => {
  it('a configured command wins and is marked custom; python plans its steps from pyproject.toml', () => {
    expect(setupRecipe('python', 'make deps', ['pyproject.toml'])).toEqual({
      toolchain: 'python',
      command: 'make deps',
      custom: true,
    });
    const plan = planPython(
      ['pyproject.toml'],
      ['pyproject.toml'],
      '[project]\nname="x"\n[project.optional-dependencies]\ntests=["pytest"]\n',
      [],
    );
    expect(setupRecipe('python', '', ['pyproject.toml'], { python: plan })).toMatchObject({
      command: "python3 -m pip install -e '.[tests]'",
      custom: false,
      python: plan,
    });
  });
});

describe('setupScript', () => {
  const recipe = (toolchain: string, command = 'true') => ({ toolchain, command, custom: true });

  it('python installs into an empty venv that sees Debian packages and puts it first on PATH in the image', () => {
    const s = setupScript(recipe('python'));
    expect(s.script).toContain('python3 -m venv --without-pip --system-site-packages /opt/hammer/venv');
    expect(s.changes('/usr/bin:/bin')).toContain('ENV PATH=/opt/hammer/venv/bin:/usr/bin:/bin');
    expect(s.carried.map((d) => d.to)).toEqual(['/opt/hammer/venv']);
    // only an installed package counts as something installed
    const [venv] = s.carried;
    expect(venv!.significant('lib/python3.11/site-packages/requests/__init__.py')).toBe(true);
    expect(venv!.significant('bin/python3')).toBe(false);
  });

  it("python held to a lock's versions: the pins are a constraints file pip reads, and the script (the image's key) is the same", () => {
    const plain = setupScript(recipe('python'));
    const pinned = setupScript(recipe('python'), ['pytest==8.3.5', 'requests==2.32.3']);
    expect(pinned.files['pip-pins.txt']).toBe('pytest==8.3.5\nrequests==2.32.3\n');
    expect(pinned.env['PIP_CONSTRAINT']).toBe('/opt/hammer/.setup/pip-pins.txt');
    expect(pinned.script).toBe(plain.script);
    expect(plain.env['PIP_CONSTRAINT']).toBeUndefined();
    expect(plain.files['pip-pins.txt']).toBeUndefined();
  });

  it('node carries node_modules from /workspace to /node_modules, which the runner never cleans, and puts its .bin on PATH', () => {
    const s = setupScript(recipe('node', 'npm ci'));
    expect(s.carried).toHaveLength(1);
    expect(s.carried[0]).toMatchObject({ from: '/workspace/node_modules', to: '/node_modules' });
    expect(s.carried[0]!.significant('.package-lock.json')).toBe(false);
    expect(s.carried[0]!.significant('is-number/package.json')).toBe(true);
    expect(s.changes('/usr/bin:/bin')).toEqual(['ENV PATH=/opt/hammer/pm/bin:/node_modules/.bin:/usr/bin:/bin']);
    // the image's npm needs nothing installed
    expect(s.script).not.toContain('npm pack');
  });

  it('node installs the package manager from the registry before the setup command, and carries it', () => {
    const pm = choosePackageManager(
      ['package.json', 'yarn.lock'],
      new Map([['yarn.lock', '__metadata:\n  version: 8\n']]),
    );
    const s = setupScript(
      setupRecipe('node', '', ['package.json', 'yarn.lock'], {
        node: { packageManager: pm, npmRegistry: 'https://mirror.example/' },
      }),
    );
    const install = s.files['install.sh'] ?? '';
    expect(install).toContain("npm pack --silent --registry 'https://mirror.example/' '@yarnpkg/cli-dist@4'");
    expect(install.indexOf('npm pack')).toBeLessThan(install.indexOf('command.sh'));
    // the install runs when the registry answers; offline, the dependencies are named and skipped
    expect(s.script).toContain(
      "if npm ping --registry 'https://mirror.example/' --fetch-retries=0 --fetch-timeout=20000 >/dev/null 2>&1; then\n  /bin/sh -e /opt/hammer/.setup/install.sh\nelse",
    );
    expect(s.script).toContain('  node /opt/hammer/.setup/node-best-effort.js\nfi');
    // berry lays out a node_modules tree (Plug'n'Play's files would live in the cleaned /workspace)
    expect(s.env.YARN_NODE_LINKER).toBe('node-modules');
    // yarn itself is something installed: a project without dependencies still needs it to run its tests
    const pmDir = s.carried.find((d) => d.from === '/opt/hammer/pm');
    expect(pmDir?.significant('bin/yarn')).toBe(true);
    // a different package manager is a different script, so a different env image
    const pnpm = choosePackageManager(['pnpm-lock.yaml'], new Map([['pnpm-lock.yaml', "lockfileVersion: '9.0'\n"]]));
    expect(
      setupScript(setupRecipe('node', '', ['pnpm-lock.yaml'], { node: { packageManager: pnpm } })).script,
    ).not.toBe(s.script);
  });

  it('node installs the package manager before a configured setup command too', () => {
    const pnpm = choosePackageManager(['pnpm-lock.yaml'], new Map([['pnpm-lock.yaml', "lockfileVersion: '9.0'\n"]]));
    const r = setupRecipe('node', 'pnpm install --offline', ['pnpm-lock.yaml'], { node: { packageManager: pnpm } });
    expect(r).toMatchObject({ command: 'pnpm install --offline', custom: true });
    expect(setupScript(r).script).toContain("'pnpm@10'");
  });

  it("pnpm installs one flat node_modules (every workspace member's dependencies where the env image carries them)", () => {
    const pnpm = choosePackageManager(['pnpm-lock.yaml'], new Map([['pnpm-lock.yaml', "lockfileVersion: '9.0'\n"]]));
    const script = setupScript(setupRecipe('node', '', ['pnpm-lock.yaml'], { node: { packageManager: pnpm } })).script;
    expect(script).toContain('npm_config_node_linker=hoisted');
    expect(script).toContain('export npm_config_node_linker pnpm_config_node_linker');
    const npm = choosePackageManager(['package-lock.json'], new Map());
    expect(
      setupScript(setupRecipe('node', '', ['package-lock.json'], { node: { packageManager: npm } })).script,
    ).not.toContain('node_linker');
  });

  it('go warms a build cache in the env image with the dependency packages only, and puts its go wrapper first on PATH', () => {
    const s = setupScript(recipe('go', 'go mod download'));
    // the imports are listed offline into a throwaway cache; only dependency and std packages are compiled
    expect(s.script).toMatch(
      /GOCACHE="\$hammer_list_cache" GOFLAGS=-mod=readonly GOPROXY=off GOTMPDIR= "\$hammer_go" list -e -deps -test -f '\{\{if \.Module\}\}\{\{if not \.Module\.Main\}\}/,
    );
    expect(s.script).toContain(
      'GOCACHE=/opt/hammer/go/cache GOFLAGS=-mod=readonly GOPROXY=off GOTMPDIR= xargs "$hammer_go" build',
    );
    // nor a module replaced by a directory of the repository
    expect(s.script).toContain('{{if or (not .Module.Replace) .Module.Replace.Version}}');
    // never the repository's own packages and tests
    expect(s.script).not.toMatch(/GOCACHE=\/opt\/hammer\/go\/cache[^\n]*(test|\.\/\.\.\.)/);
    expect(s.script).toMatch(
      /cat > \/opt\/hammer\/bin\/go <<'HAMMER_GO_WRAPPER'\n#!\/bin\/sh\n[^]*\nHAMMER_GO_WRAPPER\n/,
    );
    expect(s.changes('/usr/bin:/bin')).toEqual(['ENV PATH=/opt/hammer/bin:/usr/bin:/bin']);
    expect(s.carried.map((d) => d.to)).toEqual(['/opt/hammer/go', '/opt/hammer/bin']);
  });

  it('go and rust turn the offline defaults of their images back on-line for setup only', () => {
    expect(setupScript(recipe('go')).env.GOPROXY).toContain('proxy.golang.org');
    expect(setupScript(recipe('rust')).env.CARGO_NET_OFFLINE).toBe('false');
  });

  it("python's default runs the documented steps instead of a command file", () => {
    const plan = planPython(
      ['pyproject.toml'],
      ['pyproject.toml', 'src/calc/__init__.py'],
      '[project]\nname="calc"\n',
      [],
    );
    const s = setupScript(setupRecipe('python', '', ['pyproject.toml'], { python: plan }));
    expect(s.script).not.toContain('command.sh');
    expect(s.script).toContain('setup step 1 of 4');
    expect(s.script).toContain('--no-build-isolation --no-index');
    expect(s.script).toContain('echo /workspace/src > $hb_site/hammer-box-sources.pth');
    expect(Object.keys(s.files)).toEqual(['probe-index.py', 'best-effort.py']);
  });
});

describe('a project in a directory below the root', () => {
  it('python: shown with its cd, set up in its directory, its src on the path there', () => {
    const plan = planPython(
      ['pyproject.toml'],
      ['pyproject.toml', 'src/calc/__init__.py'],
      '[project]\nname="calc"\n',
      [],
    );
    const recipe = setupRecipe('python', '', ['pyproject.toml'], { python: plan }, 'python');
    expect(recipe).toMatchObject({ command: 'cd python && python3 -m pip install -e .', dir: 'python' });
    const s = setupScript(recipe);
    expect(s.script).toContain('\ncd /workspace/python\n');
    expect(s.script).toContain('echo /workspace/python/src > $hb_site/hammer-box-sources.pth');
  });

  it('node: its install runs in its directory, its node_modules is what the image keeps', () => {
    const recipe = setupRecipe('node', '', ['package.json', 'package-lock.json'], {}, 'web');
    expect(recipe.command).toBe('cd web && npm ci');
    const s = setupScript(recipe);
    expect(s.script).toContain('\ncd /workspace/web\n');
    expect(s.files['install.sh']).toMatch(/^\{ hb_s=0; npm ci 2>&1 \|\| hb_s=\$\?;/);
    expect(s.carried[0]).toMatchObject({ from: '/workspace/web/node_modules', to: '/node_modules' });
  });

  it('refuses a directory that is not plain words', () => {
    expect(() => setupRecipe('go', '', ['go.mod'], {}, 'x;curl evil')).toThrow(/not a project directory/);
  });

  it('a configured command runs at the root as written', () => {
    const recipe = setupRecipe('node', 'make deps', ['package.json'], {}, 'web');
    expect(recipe).toMatchObject({ command: 'make deps', custom: true });
    expect(setupScript(recipe).script).toContain('\ncd /workspace\n');
  });
});

describe('setupEnvironment', () => {
  it('points setup at its proxy (never the host proxy) and every tool at the CA bundle', () => {
    const env = setupEnvironment('http://172.20.0.2:3128', true);
    expect(env).toMatchObject({
      HTTPS_PROXY: 'http://172.20.0.2:3128',
      http_proxy: 'http://172.20.0.2:3128',
      NO_PROXY: '',
      // yarn berry ignores HTTPS_PROXY
      YARN_HTTPS_PROXY: 'http://172.20.0.2:3128',
    });
    for (const v of [
      'SSL_CERT_FILE',
      'NODE_EXTRA_CA_CERTS',
      'PIP_CERT',
      'REQUESTS_CA_BUNDLE',
      'CARGO_HTTP_CAINFO',
      'GIT_SSL_CAINFO',
    ])
      expect(env[v]).toBe('/opt/hammer/.setup/ca.crt');
    expect(setupEnvironment('http://p:3128', false).SSL_CERT_FILE).toBeUndefined();
  });
});

describe('npm ci from a lockfile another npm wrote', () => {
  const pm = choosePackageManager(['package.json', 'package-lock.json'], new Map());
  const install = setupScript(
    setupRecipe('node', '', ['package.json', 'package-lock.json'], { node: { packageManager: pm } }),
  ).files['install.sh']!;

  it('falls back to npm install only when npm refuses the lockfile as out of sync, and says so as drift', () => {
    expect(install).toContain("grep -q 'are in sync' /tmp/hammer-npm-ci.log");
    expect(install).toContain('    npm install\n');
    expect(install).toContain('hammer-box: drift: npm ci refused package-lock.json as out of sync with package.json');
    // any other failure is setup's failure, with npm's own output
    expect(install).toContain('exit "$hb_status"');
  });

  it("runs as sh runs it: the drift line names npm's reasons", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hb-npm-ci-'));
    try {
      // a stand-in npm: `ci` refuses as npm 11 does, `install` succeeds
      await mkdir(join(dir, 'bin'));
      const out = (
        await readFile(join(import.meta.dirname, '../../fixtures/setup-output/npm-11-ci-out-of-sync.txt'), 'utf8')
      ).replace(/'/g, `'\\''`);
      await writeFile(
        join(dir, 'bin', 'npm'),
        `#!/bin/sh\nif [ "$1" = ci ]; then printf '%s\\n' '${out}' >&2; exit 1; fi\necho "npm $*" > ${dir}/installed\n`,
      );
      await chmod(join(dir, 'bin', 'npm'), 0o755);
      await writeFile(join(dir, 'install.sh'), install.replaceAll('/tmp/hammer-npm-ci', join(dir, 'ci')));
      const { stdout } = await promisify(execFile)('/bin/sh', ['-e', join(dir, 'install.sh')], {
        env: { PATH: `${join(dir, 'bin')}:/usr/bin:/bin` },
      });
      expect(await readFile(join(dir, 'installed'), 'utf8')).toBe('npm install\n');
      expect(stdout).toContain(
        'hammer-box: drift: npm ci refused package-lock.json as out of sync with package.json (Missing: napi-windows-process-start-time@ from lock file); installed with npm install',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
