// Loopback in every sandbox: on each toolchain image (and under gVisor when the engine offers it)
// `localhost` resolves to 127.0.0.1 and ::1, and a test can listen on 127.0.0.1, ::1 and localhost
// and connect to itself there; there is still no other interface, no name server answers, and the
// hosts file cannot be changed. One sandbox per image, one probe each (POSIX sh, getent and the
// base image's perl, so the same probe runs on every image).
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { toolchainImage } from '../helpers/images.js';
import { testEngine, testSpec } from './sandbox-fixtures.js';

const { docker, engine } = testEngine();
let sandbox: Sandbox | undefined;

afterEach(async () => {
  await sandbox?.destroy();
  sandbox = undefined;
});

const PROBE = String.raw`
getent ahosts localhost | awk '{print "HB_RESOLVES " $1}' | sort -u
perl -MIO::Socket::IP -e '
  for my $host ("127.0.0.1", "::1", "localhost") {
    my $srv = IO::Socket::IP->new(LocalHost => $host, LocalPort => 0, Listen => 1)
      or do { print "HB_LOOP $host bind-failed\n"; next };
    my $c = IO::Socket::IP->new(PeerHost => $host, PeerPort => $srv->sockport, Timeout => 5)
      or do { print "HB_LOOP $host connect-failed\n"; next };
    my $a = $srv->accept;
    print $c "ping\n";
    my $line = <$a>;
    print "HB_LOOP $host ", ($line eq "ping\n" ? "ok" : "bad"), "\n";
  }'
echo "HB_IFACES $(awk -F: 'NR > 2 { gsub(/ /, "", $1); printf "%s ", $1 }' /proc/net/dev)"
getent hosts example.com >/dev/null 2>&1 && echo HB_DNS answered || echo HB_DNS none
{ echo x >> /etc/hosts; } 2>/dev/null && echo HB_HOSTS written || echo HB_HOSTS read-only
`;

/** What the probe printed, as lines starting with HB_. */
async function probe(image: string, runtime = ''): Promise<string[]> {
  sandbox = await engine.create(await testSpec({ image }, { runtime }));
  const r = await sandbox.exec(['sh', '-c', PROBE], { timeoutMs: 60_000 });
  expect(r.exitCode, r.stderr.text).toBe(0);
  return r.stdout.text
    .split('\n')
    .filter((l) => l.startsWith('HB_'))
    .map((l) => l.trimEnd());
}

const EXPECTED = [
  'HB_RESOLVES 127.0.0.1',
  'HB_RESOLVES ::1',
  'HB_LOOP 127.0.0.1 ok',
  'HB_LOOP ::1 ok',
  'HB_LOOP localhost ok',
  'HB_IFACES lo',
  'HB_DNS none',
  'HB_HOSTS read-only',
];

describe('loopback in the sandbox', () => {
  it.each(['python', 'node', 'go', 'rust'])('%s image: localhost, 127.0.0.1 and ::1, nothing else', async (tc) => {
    expect(await probe(await toolchainImage(tc))).toEqual(EXPECTED);
  });

  // HAMMER_GVISOR=off (make test GVISOR=0, or no runsc) leaves it out; on: the engine must offer runsc
  const gvisor = async (): Promise<boolean> => {
    const info = (await docker.info()) as { Runtimes?: Record<string, unknown> };
    const offered = Object.keys(info.Runtimes ?? {}).includes('runsc');
    if (!offered && process.env['HAMMER_GVISOR'] !== 'on') return false;
    expect(offered, "the engine offers runsc ('make gvisor')").toBe(true);
    return true;
  };

  it.skipIf(process.env['HAMMER_GVISOR'] === 'off')('under gVisor: the same', async () => {
    if (!(await gvisor())) return;
    expect(await probe(await toolchainImage('python'), 'runsc')).toEqual(EXPECTED);
  });

  // gVisor's own threads count against the engine's pids limit (about 40, more under load, and
  // about nine for each process of the sandbox): with the limit in process units, gVisor itself
  // could not start a thread and stopped the sandbox (exit status 2) under load, or at once here
  it.skipIf(process.env['HAMMER_GVISOR'] === 'off')(
    "under gVisor, a small pids_limit caps the sandbox's processes, not gVisor's own threads",
    async () => {
      if (!(await gvisor())) return;
      sandbox = await engine.create(
        await testSpec({ image: await toolchainImage('python') }, { runtime: 'runsc', pidsLimit: 16 }),
      );
      const r = await sandbox.exec(
        [
          'sh',
          '-c',
          'for i in 1 2 3 4 5 6 7 8 9 10; do (touch /tmp/running-$i; sleep 3) & done; sleep 1; set -- /tmp/running-*; echo $#; wait; echo done',
        ],
        { timeoutMs: 60_000 },
      );
      expect(r.exitCode, r.stderr.text).toBe(0);
      expect(r.stdout.text.trim().split('\n')).toEqual(['10', 'done']);
    },
  );
});
