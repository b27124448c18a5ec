// Network and kernel escape attempts from the repository's tests: a Python script run as the test
// command tries DNS, TCP to the Docker bridge gateway (where the host listens) and the cloud
// metadata address, IPv6, raw and packet sockets, writes to /proc/sys, sysrq and cgroup files,
// setuid binaries, ptrace of PID 1, mount, unshare and keyctl. Each attempt is paired with a
// control that must succeed in the same sandbox; a host canary must stay untouched.
import { readFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolchainImage } from '../helpers/images.js';
import { requireBuiltCli } from './support/cli.js';
import { attack } from './support/record.js';
import { createScene, expectCanarySafe, runScene, type Scene, type SceneOptions } from './support/scene.js';

const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  requireBuiltCli();
  await toolchainImage('python');
});
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function scene(opts: SceneOptions): Promise<Scene> {
  const s = await createScene(opts);
  cleanups.push(() => s.cleanup());
  return s;
}

describe('escape attempts from the tests', () => {
  it('network and kernel escape attempts from the tests all fail; each control works', async () => {
    const docker = new Docker();
    const bridge = await docker.getNetwork('bridge').inspect();
    const gateway: string = bridge.IPAM?.Config?.[0]?.Gateway ?? '172.17.0.1';
    const listener: Server = createServer((sock) => {
      sock.on('error', () => undefined);
      sock.end('hello from the host\n');
    });
    await new Promise<void>((r) => listener.listen(0, '0.0.0.0', r));
    cleanups.push(() => new Promise((r) => listener.close(() => r())));
    const port = (listener.address() as { port: number }).port;
    // control for the gateway attack: the listener is reachable at the gateway address from the host
    const hostReaches = await new Promise<boolean>((resolve) => {
      const c = connect({ host: gateway, port }, () => (c.destroy(), resolve(true)));
      c.once('error', () => resolve(false));
    });
    const script = await readFile(new URL('./fixtures/escape_attempts.py', import.meta.url), 'utf8');
    const s = await scene({ files: { 'escape_attempts.py': script }, answers: [{ answer: 'NO_CHANGES' }], testCommand: `python3 escape_attempts.py ${gateway} ${port}`, maxIterations: 1 });
    const out = await runScene(s);
    const log = await readFile(join(s.fx.repo.path, '.hammer', 'runs', out.runId, 'baseline-test.log'), 'utf8');
    const rows = [...log.matchAll(/^HB_RESULT ([^|\n]+)\|(denied|ALLOWED)\|(ok|FAILED)\|(.*)$/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(20);
    const safe = await expectCanarySafe(s, out);
    for (const [, name, verdict, control, detail] of rows) {
      await attack(name!, 'denied; control ok', () => {
        expect(`${name}: ${verdict} (${detail})`).toBe(`${name}: denied (${detail})`);
        expect(`${name} control: ${control} (${detail})`).toBe(`${name} control: ok (${detail})`);
        if (name === 'tcp to the bridge gateway') expect(hostReaches, 'the host reaches the gateway listener').toBe(true);
        return detail!.replace(/; control: .*/, '').replace(/^attack: /, '');
      });
    }
    await attack('canary inside the sandbox', 'absent from env, /proc/*/environ and the filesystem', () => safe);
  });
});
