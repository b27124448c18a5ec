// doctor against the real engine and a real (scripted) model server: what it finds present, what it
// reports missing, and the next step it names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctor, type DoctorCheck, type DoctorReport } from '../../src/api/doctor.js';
import { BASE_TAG } from '../../src/images/index.js';
import { createFixtureRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { DEFAULT_TEST_MODEL, startModelServer, type ModelServer } from '../helpers/model-server.js';

/** The process environment without any hammer-box or Ollama settings of whoever runs the tests. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('HAMMER_') && k !== 'OLLAMA_HOST'),
  );
  return { ...env, ...extra };
}

function find(report: DoctorReport, name: string): DoctorCheck | undefined {
  return report.checks.find((c) => c.name === name);
}

let server: ModelServer;
let toolchainTag: string;

beforeAll(async () => {
  toolchainTag = await toolchainImage();
  server = await startModelServer({ script: [] });
});

afterAll(async () => {
  await server.close();
});

describe('doctor', () => {
  it('is ready when the engine answers, the images are built and the server has the model', async () => {
    const report = await doctor({ env: baseEnv({ HAMMER_LLM_URL: server.url, HAMMER_MODEL: DEFAULT_TEST_MODEL }) });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual([
      'config',
      'engine',
      'seccomp',
      'AppArmor/SELinux',
      'user namespaces',
      'runtime',
      'cgroup',
      'toolchain',
      'base image',
      'toolchain image',
      'model',
    ]);
    expect(find(report, 'engine')?.detail).toMatch(/^Docker \S+ \(API \d+\.\d+\), linux\//);
    expect(find(report, 'toolchain')).toMatchObject({
      status: 'ok',
      detail: 'python 3.13 (default) from Debian 13',
    });
    expect(find(report, 'base image')).toMatchObject({ status: 'ok', detail: expect.stringContaining(BASE_TAG) });
    expect(find(report, 'toolchain image')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining(toolchainTag),
    });
    expect(find(report, 'model')).toEqual({
      name: 'model',
      status: 'ok',
      detail: `Ollama at ${server.url} has ${DEFAULT_TEST_MODEL}`,
    });
    expect(report.engine?.runtimes).toContain(report.engine?.defaultRuntime);
    expect(find(report, 'cgroup')?.detail).toBe(`cgroup v${report.engine?.cgroupVersion}`);
    // the model check asked the server for its models, and nothing else
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/tags']);
  });

  it('with --repo, shows the toolchain, version and package manager that repository would get', async () => {
    const repo = await createFixtureRepo({
      files: {
        '.nvmrc': '22\n',
        'package.json': '{"name":"x","scripts":{"test":"node t.js"}}\n',
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
        't.js': '',
      },
    });
    try {
      const env = baseEnv({ HAMMER_LLM_URL: server.url, HAMMER_MODEL: DEFAULT_TEST_MODEL });
      const report = await doctor({ env, repo: repo.path });
      expect(find(report, 'toolchain')).toEqual({
        name: 'toolchain',
        status: 'ok',
        detail:
          'node 22.23.3 (.nvmrc: 22) from npm registry; package manager pnpm 10 (pnpm-lock.yaml (lockfileVersion 9.0)); also available: 16.20.2, 18.20.8, 20.20.2, 24.21.0, 26.10.0',
      });
      expect(find(report, 'toolchain image')?.detail).toMatch(/^hammer-box\/node:[0-9a-f]{12}/);
      await repo.write({ '.nvmrc': '21\n' });
      await repo.git(['commit', '-qam', 'node 21']);
      const refused = await doctor({ env, repo: repo.path });
      expect(find(refused, 'toolchain')).toMatchObject({
        status: 'fail',
        detail: expect.stringContaining('.nvmrc asks for node 21 (matching 21)'),
        hint: expect.stringContaining('[sandbox] toolchain_version'),
      });
      expect(find(refused, 'toolchain image')).toBeUndefined();
    } finally {
      await repo.cleanup();
    }
  });

  it('fails the runtime check when the configured runtime is not one the engine offers', async () => {
    const report = await doctor({
      env: baseEnv({
        HAMMER_LLM_URL: server.url,
        HAMMER_MODEL: DEFAULT_TEST_MODEL,
        HAMMER_RUNTIME: 'hammer-box-no-such-runtime',
      }),
    });
    expect(report.ok).toBe(false);
    expect(find(report, 'runtime')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('"hammer-box-no-such-runtime", but the engine offers only'),
    });
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.name)).toEqual(['runtime']);
  });

  it('checks your own image against the contract and says exactly what it lacks', async () => {
    // The base image is debootstrap minbase: no git, no /workspace.
    const report = await doctor({
      env: baseEnv({ HAMMER_LLM_URL: server.url, HAMMER_MODEL: DEFAULT_TEST_MODEL, HAMMER_IMAGE: BASE_TAG }),
    });
    expect(report.ok).toBe(false);
    expect(find(report, 'image')).toMatchObject({ status: 'ok', detail: expect.stringContaining(BASE_TAG) });
    const contract = find(report, 'image contract');
    expect(contract?.status).toBe('fail');
    expect(contract?.detail).toContain('git');
    expect(contract?.detail).toContain('a /workspace directory');
    expect(contract?.hint).toContain('Bring your own image');
    // a user's image replaces the toolchain image: those are not checked
    expect(find(report, 'toolchain image')).toBeUndefined();
  });

  it('fails for an image the engine does not have, since runs never pull', async () => {
    const ref = 'hammer-box-test/not-here:1';
    const report = await doctor({
      env: baseEnv({ HAMMER_LLM_URL: server.url, HAMMER_MODEL: DEFAULT_TEST_MODEL, HAMMER_IMAGE: ref }),
    });
    expect(find(report, 'image')).toEqual({
      name: 'image',
      status: 'fail',
      detail: `${ref} is not on the engine; hammer-box never pulls during a run`,
      hint: `pull or build it first (docker pull ${ref})`,
    });
    expect(find(report, 'image contract')).toBeUndefined();
  });

  it('reports an engine that does not answer, with what to do, and still checks the model', async () => {
    const report = await doctor({
      env: baseEnv({
        DOCKER_HOST: 'unix:///nonexistent/hammer-box-test.sock',
        HAMMER_LLM_URL: server.url,
        HAMMER_MODEL: DEFAULT_TEST_MODEL,
      }),
    });
    expect(report.ok).toBe(false);
    expect(report.engine).toBeNull();
    expect(report.checks.map((c) => `${c.name}:${c.status}`)).toEqual(['config:ok', 'engine:fail', 'model:ok']);
    expect(find(report, 'engine')?.hint).toContain('install and start Docker');
  });
});
