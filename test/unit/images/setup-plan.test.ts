import { describe, expect, it } from 'vitest';
import { setupEnvironment } from '../../../src/images/env-image.js';
import { choosePackageManager } from '../../../src/images/node-package-manager.js';
import {
  defaultSetupCommand,
  isDependencyFile,
  localRequirementPaths,
  setupScript,
} from '../../../src/images/setup-plan.js';

describe('defaultSetupCommand', () => {
  it.each([
    ['python', ['requirements.txt', 'setup.py'], 'python3 -m pip install --no-build-isolation -r requirements.txt'],
    [
      'python',
      ['requirements.txt', 'requirements-test.txt'],
      'python3 -m pip install --no-build-isolation -r requirements.txt -r requirements-test.txt',
    ],
    ['python', ['pyproject.toml'], "python3 -m pip install --no-build-isolation -e '.[test]'"],
    ['python', ['calc.py'], ''],
    ['node', ['package.json', 'package-lock.json'], 'npm ci'],
    ['node', ['package.json'], ''],
    ['node', ['package.json', 'pnpm-lock.yaml'], 'pnpm install --frozen-lockfile'],
    ['go', ['go.mod'], 'go mod download'],
    ['rust', ['Cargo.toml'], 'cargo fetch'],
  ])('%s with %j: %j', (toolchain, files, command) => {
    const pm = toolchain === 'node' ? choosePackageManager(files, new Map()) : undefined;
    expect(defaultSetupCommand(toolchain, files, pm)).toBe(command);
  });
});

describe('isDependencyFile', () => {
  it('hashes manifests and lockfiles, not sources', () => {
    expect(isDependencyFile('node', 'package-lock.json')).toBe(true);
    expect(isDependencyFile('node', 'index.js')).toBe(false);
    expect(isDependencyFile('node', 'pnpm-lock.yaml')).toBe(true);
    expect(isDependencyFile('node', '.yarnrc.yml')).toBe(true);
    expect(isDependencyFile('go', 'go.sum')).toBe(true);
    expect(isDependencyFile('rust', 'Cargo.lock')).toBe(true);
    expect(isDependencyFile('python', 'requirements-dev.txt')).toBe(true);
    expect(isDependencyFile('python', 'calc.py')).toBe(false);
  });
});

describe('localRequirementPaths', () => {
  it('finds local directories in requirements, normalised, and ignores index names and escapes', () => {
    const text = [
      'requests==2.0',
      './vendor/greet',
      '-e ./libs/tool[extra]',
      'file:./third  # comment',
      '../outside',
      './a/../b',
      '.',
    ].join('\n');
    expect(localRequirementPaths(text)).toEqual(['.', 'libs/tool', 'third', 'vendor/greet']);
  });
});

describe('setupScript', () => {
  it('python installs into a venv that sees Debian packages and puts it first on PATH in the image', () => {
    const s = setupScript('python');
    expect(s.script).toContain('python3 -m venv --system-site-packages /opt/hammer/venv');
    expect(s.changes('/usr/bin:/bin')).toContain('ENV PATH=/opt/hammer/venv/bin:/usr/bin:/bin');
  });

  it('node moves node_modules out of /workspace, which the runner cleans, and puts its .bin on PATH', () => {
    const s = setupScript('node');
    expect(s.script).toContain('cp -a node_modules/. /node_modules/');
    expect(s.dirs).toContain('/node_modules');
    expect(s.changes('/usr/bin:/bin')).toEqual(['ENV PATH=/opt/hammer/pm/bin:/node_modules/.bin:/usr/bin:/bin']);
    // the image's npm needs nothing installed
    expect(s.script).not.toContain('npm pack');
  });

  it('node installs the package manager from the registry before the setup command', () => {
    const pm = choosePackageManager(
      ['package.json', 'yarn.lock'],
      new Map([['yarn.lock', '__metadata:\n  version: 8\n']]),
    );
    const s = setupScript('node', { packageManager: pm, npmRegistry: 'https://mirror.example/' });
    expect(s.script).toContain("npm pack --silent --registry 'https://mirror.example/' '@yarnpkg/cli-dist@4'");
    expect(s.script.indexOf('npm pack')).toBeLessThan(s.script.indexOf('command.sh'));
    // berry lays out a node_modules tree (Plug'n'Play's files would live in the cleaned /workspace)
    expect(s.env.YARN_NODE_LINKER).toBe('node-modules');
    // a different package manager is a different script, so a different env image
    const pnpm = choosePackageManager(['pnpm-lock.yaml'], new Map([['pnpm-lock.yaml', "lockfileVersion: '9.0'\n"]]));
    expect(setupScript('node', { packageManager: pnpm }).script).not.toBe(s.script);
  });

  it('go warms a build cache in the env image (compiling tests without running them) and puts its go wrapper first on PATH', () => {
    const s = setupScript('go');
    expect(s.script).toContain('GOCACHE=/opt/hammer/go/cache GOTMPDIR= "$hammer_go" test -exec /bin/true ./...');
    expect(s.script).toMatch(
      /cat > \/opt\/hammer\/bin\/go <<'HAMMER_GO_WRAPPER'\n#!\/bin\/sh\n[^]*\nHAMMER_GO_WRAPPER\n/,
    );
    // the wrapper is written before the repository copy and setup's files are removed
    expect(s.script.indexOf('HAMMER_GO_WRAPPER')).toBeLessThan(s.script.indexOf('find /workspace -mindepth 1 -delete'));
    expect(s.changes('/usr/bin:/bin')).toEqual(['ENV PATH=/opt/hammer/bin:/usr/bin:/bin']);
  });

  it('go and rust turn the offline defaults of their images back on-line for setup only', () => {
    expect(setupScript('go').env.GOPROXY).toContain('proxy.golang.org');
    expect(setupScript('rust').env.CARGO_NET_OFFLINE).toBe('false');
  });

  it('every script empties /workspace and removes its own files before the commit', () => {
    for (const tc of ['python', 'node', 'go', 'rust']) {
      const { script } = setupScript(tc);
      expect(script).toContain('find /workspace -mindepth 1 -delete');
      expect(script).toContain('rm -rf /opt/hammer/.setup');
      expect(script.indexOf('command.sh')).toBeLessThan(script.indexOf('find /workspace'));
    }
  });
});

describe('setupEnvironment', () => {
  it('passes the host proxy settings and points every tool at the CA bundle', () => {
    const env = setupEnvironment(
      { HTTPS_PROXY: 'http://proxy:3128', no_proxy: 'localhost', PATH: '/x', SECRET: 's' },
      true,
    );
    expect(env).toMatchObject({ HTTPS_PROXY: 'http://proxy:3128', no_proxy: 'localhost' });
    expect(env.PATH).toBeUndefined();
    expect(env.SECRET).toBeUndefined();
    for (const v of [
      'SSL_CERT_FILE',
      'NODE_EXTRA_CA_CERTS',
      'PIP_CERT',
      'REQUESTS_CA_BUNDLE',
      'CARGO_HTTP_CAINFO',
      'GIT_SSL_CAINFO',
    ]) {
      expect(env[v]).toBe('/opt/hammer/.setup/ca.crt');
    }
    expect(setupEnvironment({}, false)).toEqual({});
  });
});
