import { describe, expect, it } from 'vitest';
import { planPython, pythonCommand, pythonSteps } from '../../../src/images/python-setup.js';
import { classifyOutput, describeSteps, SetupLog } from '../../../src/images/setup-failure.js';

const PYPROJECT = `
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "calc"
dependencies = ["attrs>=20"]

[project.optional-dependencies]
test = ["pytest>=7"]
docs = ["sphinx"]

[dependency-groups]
lint = ["ruff"]
test = ["pytest-timeout", {include-group = "base"}]
base = ["coverage"]
`;

describe('planPython', () => {
  it('reads the test extras, the test groups (include-group resolved) and the source root', () => {
    const plan = planPython(['pyproject.toml'], ['pyproject.toml', 'src/calc/__init__.py'], PYPROJECT, []);
    expect(plan).toEqual({
      requirements: [],
      project: true,
      extras: ['test'],
      groups: ['pytest-timeout', 'coverage'],
      testDeps: ['attrs>=20', 'pytest>=7', 'pytest-timeout', 'coverage'],
      sourceRoot: 'src',
    });
    expect(pythonCommand(plan)).toBe("python3 -m pip install -e '.[test]'");
  });

  it('falls back on dev when no test extra exists, and installs requirements files instead of the project', () => {
    const plan = planPython(
      ['pyproject.toml', 'requirements.txt'],
      [],
      '[project]\nname="x"\n[project.optional-dependencies]\ndev=["pytest"]\n',
      ['requirements.txt'],
    );
    expect(plan.extras).toEqual(['dev']);
    expect(pythonCommand(plan)).toBe('python3 -m pip install -r requirements.txt');
  });

  it('a setup.py project is a project with unknown dependencies; a broken pyproject.toml is left to pip', () => {
    expect(planPython(['setup.py'], ['setup.py', 'calc.py'], undefined, [])).toMatchObject({
      project: true,
      testDeps: [],
      sourceRoot: null,
    });
    expect(planPython(['pyproject.toml'], [], '[project', [])).toMatchObject({ project: false });
  });

  it('never lets a declared requirement become an option line of a requirements file', () => {
    const plan = planPython(
      ['pyproject.toml'],
      [],
      '[project]\nname="x"\ndependencies=["--index-url http://evil", "ok", "a\\nb"]\n',
      [],
    );
    expect(plan.testDeps).toEqual(['ok']);
  });
});

describe('pythonSteps', () => {
  it('three steps for a project and the offline best effort, and a failure when none succeeds', () => {
    const plan = planPython(['pyproject.toml'], ['pyproject.toml'], PYPROJECT, []);
    const script = pythonSteps(plan, '/opt/hammer/.setup', '$hb_site').join('\n');
    expect(script).toContain("printf '%s\\n' 'pytest-timeout' 'coverage' > /opt/hammer/.setup/groups.txt");
    expect(script).toContain("python3 -m pip install -e '.[test]' -r /opt/hammer/.setup/groups.txt");
    expect(script).toContain('setup step 3 of 4: test dependencies only');
    // the best effort runs only offline, after every other step failed: the project without its dependencies
    expect(script).toContain(
      'if [ "$hb_done" = 0 ] && [ "$hb_online" = 0 ]; then\n  echo "hammer-box: setup step 4 of 4: offline, best effort: what the image has, the rest skipped"',
    );
    expect(script).toContain(
      'python3 -u /opt/hammer/.setup/best-effort.py --project --deps /opt/hammer/.setup/test-deps.txt; then hb_done=4',
    );
    expect(script.trim().split('\n').at(-1)).toBe('[ "$hb_done" != 0 ] || exit 1');
  });

  it('two steps for requirements files, then the best effort over the same files', () => {
    const plan = planPython(['requirements.txt'], [], undefined, ['requirements.txt', 'requirements-dev.txt']);
    const script = pythonSteps(plan, '/s', '$site').join('\n');
    expect(script).toContain('setup step 2 of 3');
    expect(script).not.toContain('test dependencies only');
    expect(script).toContain("/s/best-effort.py --requirements 'requirements.txt' 'requirements-dev.txt'; then");
  });
});

describe('setup failures', () => {
  it.each([
    ['tls', "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed'))"],
    [
      'network',
      'hammer-box: the package index https://pypi.org/simple/pip/ is not reachable: Tunnel connection failed: 500',
    ],
    ['proxy_denied', 'curl: (56) CONNECT tunnel failed, response 403'],
    ['backend', "pip._vendor.pyproject_hooks._impl.BackendUnavailable: Cannot import 'hatchling.build'"],
    ['backend', "ModuleNotFoundError: No module named 'flit_core'"],
    ['backend', 'configuration error: `project.license` must be valid exactly by one definition (2 matches found):'],
    ['resolution', 'ERROR: No matching distribution found for pytest-cov'],
    ['project', '  RuntimeError: boom (from setup.py)'],
    ['no_space', "dd: error writing '/tmp/fill': No space left on device"],
    ['no_space', "OSError: [Errno 28] No space left on device: '/opt/hammer/venv/lib/x'"],
    ['no_space', 'npm ERR! code ENOSPC'],
    ['unknown', 'something else'],
  ] as const)('%s: %s', (kind, line) => {
    expect(classifyOutput(['noise', line]).kind).toBe(kind);
  });

  it('splits output by announced steps and names the root cause first', () => {
    const log = new SetupLog();
    for (const l of [
      'hammer-box: the package index https://pypi.org/simple/pip/ is not reachable: Name or service not known',
      'hammer-box: setup step 1 of 3: from the index, with build isolation',
      'hammer-box: setup step 1 skipped: no package index is reachable',
      "hammer-box: setup step 2 of 3: offline, with Debian's build backends",
      "ModuleNotFoundError: No module named 'mybackend'",
      "BackendUnavailable: Cannot import 'mybackend'",
      'hammer-box: setup step 2 failed',
      'hammer-box: setup step 3 of 3: test dependencies only, the sources on the path',
      'ERROR: No matching distribution found for pytest-cov',
      'hammer-box: setup step 3 failed',
    ])
      log.add(l);
    const records = log.records();
    expect(records.map((r) => [r.n, r.outcome, r.kind])).toEqual([
      [1, 'skipped', 'network'],
      [2, 'failed', 'backend'],
      [3, 'failed', 'resolution'],
    ]);
    const { lines, kinds } = describeSteps(records);
    expect(kinds).toEqual(['network', 'resolution']);
    expect(lines[2]).toContain(
      'step 3 (test dependencies only, the sources on the path): failed: resolution (ERROR: No matching distribution found for pytest-cov)',
    );
  });
});
