// The engine client loads without dockerode's BuildKit session (gRPC) and ssh2 stacks, which are
// loaded on first use: an ssh:// engine still gets a real ssh connection attempt.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';

const execFileP = promisify(execFile);
const lib = join(packageRoot(), 'dist', 'sandbox', 'index.js');

/** Run `body` in a fresh node (module caches start empty); returns its stdout. */
async function inFreshNode(body: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const script = `import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(lib)});
const { createDockerClient } = await import(${JSON.stringify(lib)});
${body}`;
  const { stdout } = await execFileP(process.execPath, ['--no-deprecation', '--input-type=module', '-e', script], {
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return stdout;
}

describe('engine client loading', () => {
  it('leaves the gRPC session and ssh2 unloaded for a local engine', async () => {
    const out = await inFreshNode(`createDockerClient();
const loaded = Object.keys(require.cache);
console.log(JSON.stringify({
  dockerode: loaded.some((p) => p.includes('/dockerode/lib/docker.js')),
  deferred: loaded.filter((p) => /[/]node_modules[/](@grpc[/]grpc-js|protobufjs|ssh2)[/]/.test(p)).length,
}));`);
    expect(JSON.parse(out)).toEqual({ dockerode: true, deferred: 0 });
  });

  it('loads ssh2 when the engine is reached over ssh://', async () => {
    const out = await inFreshNode(
      `try { await createDockerClient().ping(); console.log('answered'); }
catch (err) { console.log(String(err instanceof Error ? err.message : err)); }
console.log(Object.keys(require.cache).some((p) => /[/]node_modules[/]ssh2[/]/.test(p)));`,
      { DOCKER_HOST: 'ssh://nobody@127.0.0.1:1' },
    );
    const [message, ssh2] = out.trim().split('\n');
    // ssh2's own connection attempt failed (nothing listens on port 1), not a stand-in's mistake
    expect(message).toMatch(/ECONNREFUSED/);
    expect(ssh2).toBe('true');
  });
});
