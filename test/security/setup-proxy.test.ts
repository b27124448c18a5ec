// The setup proxy is the only way out of the setup network. Plain `http://host:port/` requests are
// limited like CONNECT is: an allowed host on another port (or with credentials before it) is
// refused with 403 and never contacted, while the same host on port 80 and CONNECT to port 443
// pass the filter (the controls). Requests come from a container on the setup network, as setup's
// would.
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { ensureProxyImage } from '../../src/images/proxy-image.js';
import { openSetupNetwork } from '../../src/images/setup-network.js';
import { toolchainImage } from '../helpers/images.js';
import { plantCanary } from './support/canary.js';
import { attack } from './support/record.js';

const docker = new Docker();

/** Send raw requests through the proxy from a container on `network`; the first line of each answer. */
async function throughProxy(image: string, network: string, proxy: URL, requests: string[]): Promise<string[]> {
  const script = `
import socket, sys, json
out = []
for req in json.loads(sys.argv[1]):
    s = socket.create_connection((${JSON.stringify(proxy.hostname)}, ${proxy.port}), timeout=20)
    try:
        s.sendall(req.encode())
        data = b""
        while b"\\r\\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        out.append(data.split(b"\\r\\n")[0].decode("latin1"))
    except Exception as e:
        out.append("error: %s" % e)
    finally:
        s.close()
print(json.dumps(out))
`;
  const container = await docker.createContainer({
    Image: image,
    Entrypoint: ['python3', '-c', script, JSON.stringify(requests)],
    Cmd: [],
    User: '10001:10001',
    HostConfig: { NetworkMode: network, CapDrop: ['ALL'], ReadonlyRootfs: true },
  });
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    const chunks: Buffer[] = [];
    const done = new Promise<void>((resolve) => {
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', resolve);
    });
    await container.start();
    await container.wait();
    await done;
    const raw = Buffer.concat(chunks);
    const out: Buffer[] = [];
    for (let i = 0; i + 8 <= raw.length;) {
      const size = raw.readUInt32BE(i + 4);
      if (raw[i] === 1) out.push(raw.subarray(i + 8, i + 8 + size));
      i += 8 + size;
    }
    return JSON.parse(Buffer.concat(out).toString('utf8')) as string[];
  } finally {
    await container.remove({ force: true });
  }
}

describe('the setup proxy', () => {
  it('limits plain HTTP requests to port 80 of an allowed host, as CONNECT is limited to 443', async () => {
    const image = await toolchainImage('python');
    const proxyImage = await ensureProxyImage(docker);
    const canary = await plantCanary();
    // the host's environment (the canary variable in it) is what hammer-box hands the proxy's setup
    const net = await openSetupNetwork(docker, {
      proxyImage: proxyImage.id,
      hosts: ['registry.npmjs.org'],
      hostEnv: process.env,
    });
    try {
      const proxy = new URL(net.proxyUrl);
      const get = (url: string): string => `GET ${url} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;
      const [port8080, auth, connect8443, port80, connect443] = await throughProxy(image, net.name, proxy, [
        get('http://registry.npmjs.org:8080/'),
        get('http://user@registry.npmjs.org:8080/'),
        'CONNECT registry.npmjs.org:8443 HTTP/1.1\r\nHost: registry.npmjs.org:8443\r\n\r\n',
        get('http://registry.npmjs.org/left-pad'),
        'CONNECT registry.npmjs.org:443 HTTP/1.1\r\nHost: registry.npmjs.org:443\r\n\r\n',
      ]);
      const log = await net.proxyLog();
      await attack(
        'plain http://allowed-host:8080/ through the setup proxy',
        'refused with 403 like CONNECT to another port; port 80 and CONNECT 443 of the host pass the filter',
        () => {
          expect(port8080).toMatch(/^HTTP\/1\.\d 403/);
          expect(auth).toMatch(/^HTTP\/1\.\d 403/);
          expect(connect8443).toMatch(/^HTTP\/1\.\d 403/);
          expect(log).toContain('Proxying refused on filtered url "http://registry.npmjs.org:8080/"');
          // controls: the filter lets these through (what the registry or the network answers is theirs)
          expect(port80).not.toMatch(/ 403/);
          expect(connect443).toMatch(/^HTTP\/1\.\d 200/);
          expect(canary.hits({ 'proxy log': log, answers: JSON.stringify([port8080, auth, port80]) })).toEqual([]);
          return `8080: ${port8080}; 80: ${port80}; CONNECT 443: ${connect443}`;
        },
      );
      expect(await canary.untouched()).toBe(true);
    } finally {
      await net.close();
      await canary.remove();
    }
  }, 300_000);
});
