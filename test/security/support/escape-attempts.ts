// Network and kernel escape attempts from the repository's tests: a Python script run as the test
// command tries DNS, TCP to the Docker bridge gateway (where the host listens) and the cloud
// metadata address, IPv6, raw and packet sockets, writes to /proc/sys, sysrq and cgroup files,
// setuid binaries, ptrace of PID 1, mount, unshare and keyctl. Each attempt is paired with a
// control that must succeed in the same sandbox; a host canary must stay untouched. Shared by the
// attacks on the engine's default runtime and on gVisor.
import { readFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { release } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { expect } from 'vitest';
import { attack } from './record.js';
import type { AttackFile } from './hooks.js';
import { expectCanarySafe, runScene } from './scene.js';

/**
 * Attempts gVisor answers in its own kernel instead of refusing, with what the row then expects.
 * Docker's seccomp profile is not applied to processes inside gVisor, so unshare(2) succeeds there,
 * making a namespace of gVisor's kernel, not of the host's; and gVisor lets the sandbox user read
 * PID 1's environment, which holds only the sandbox's allowlisted variables (the canary probe
 * searches every /proc/<pid>/environ for the host's secret).
 */
const OWN_KERNEL_ALLOWS = new Map([
  ['unshare user namespace', "denied, or made in gVisor's own kernel; control ok"],
  ['unshare mount namespace', "denied, or made in gVisor's own kernel; control ok"],
  ["read PID 1's environment", 'denied, or (gVisor) only the allowlisted sandbox environment, no canary; control ok'],
]);

/**
 * Run every attempt in one sandbox and record a row per attempt, each name prefixed with `prefix`.
 * `env` picks the runtime (HAMMER_RUNTIME); `file` makes the scene and takes the cleanups. With
 * `ownKernel` (gVisor) the sandbox must run on a kernel that is not the host's, and the namespace
 * attempts may succeed inside it.
 */
export async function escapeAttempts(opts: {
  prefix: string;
  env?: Record<string, string>;
  ownKernel?: boolean;
  file: AttackFile;
}): Promise<void> {
  const { cleanups, scene } = opts.file;
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
  const script = await readFile(new URL('../fixtures/escape_attempts.py', import.meta.url), 'utf8');
  const s = await scene({
    ...(opts.env ? { env: opts.env } : {}),
    files: { 'escape_attempts.py': script },
    answers: [{ answer: 'NO_CHANGES' }],
    testCommand: `python3 escape_attempts.py ${gateway} ${port} ${release()}`,
    maxIterations: 1,
  });
  const out = await runScene(s);
  const log = await readFile(join(s.fx.repo.path, '.hammer', 'runs', out.runId, 'baseline-test.log'), 'utf8');
  const rows = [...log.matchAll(/^HB_RESULT ([^|\n]+)\|(denied|ALLOWED)\|(ok|FAILED)\|(.*)$/gm)];
  expect(rows.length).toBeGreaterThanOrEqual(20);
  // the canary checks first: a row that allows something under gVisor relies on them
  const safe = await expectCanarySafe(s, out);
  const kernel = /^HB_KERNEL (\S+)$/m.exec(log)?.[1];
  if (opts.ownKernel) expect(kernel, "the sandbox runs on its own kernel, not the host's").not.toBe(release());
  for (const [, name, verdict, control, detail] of rows) {
    const inOwnKernel = opts.ownKernel === true && OWN_KERNEL_ALLOWS.has(name!);
    const expected = inOwnKernel ? OWN_KERNEL_ALLOWS.get(name!)! : 'denied; control ok';
    await attack(`${opts.prefix}${name!}`, expected, () => {
      if (!(inOwnKernel && verdict === 'ALLOWED'))
        expect(`${name}: ${verdict} (${detail})`).toBe(`${name}: denied (${detail})`);
      expect(`${name} control: ${control} (${detail})`).toBe(`${name} control: ok (${detail})`);
      if (name === 'tcp to the bridge gateway') expect(hostReaches, 'the host reaches the gateway listener').toBe(true);
      const seen = detail!.replace(/; control: .*/, '').replace(/^attack: /, '');
      return verdict === 'ALLOWED' ? `in gVisor's kernel ${kernel} (host ${release()}): ${seen}` : seen;
    });
  }
  await attack(
    `${opts.prefix}canary inside the sandbox`,
    'absent from env, /proc/*/environ and the filesystem',
    () => safe,
  );
}
