// Shared setup for the sandbox suites: a client, an engine, and a spec with small limits.
import { randomBytes } from 'node:crypto';
import { createDockerClient, DockerSandboxEngine, type SandboxSpec } from '../../src/sandbox/index.js';
import { toolchainImage } from '../helpers/images.js';

/** A docker client and a sandbox engine for one test file. */
export function testEngine(options: { resident?: boolean } = {}) {
  const docker = createDockerClient();
  return { docker, engine: new DockerSandboxEngine({ docker, ...options }) };
}

/** A spec for the toolchain image with limits small enough for a shared two-core machine. */
export async function testSpec(
  overrides: Partial<SandboxSpec> = {},
  limits: Partial<SandboxSpec['limits']> = {},
): Promise<SandboxSpec> {
  return {
    image: await toolchainImage(),
    runId: `test-${randomBytes(4).toString('hex')}`,
    user: '10001:10001',
    env: { HOME: '/tmp', LANG: 'C.UTF-8' },
    ...overrides,
    limits: {
      memoryBytes: 512 * 1024 * 1024,
      nanoCpus: 1e9,
      pidsLimit: 128,
      tmpBytes: 16 * 1024 * 1024,
      workspaceBytes: 256 * 1024 * 1024,
      nofile: 1024,
      runtime: '',
      ...limits,
    },
  };
}
