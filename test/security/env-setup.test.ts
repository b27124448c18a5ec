// Attacks on the dependency setup and the env image cache, each through the real CLI with a host
// canary and an allowed control:
// - repository A's nested requirement file installs a local package whose setup.py drops a .pth
//   into site-packages; repository B has the same requirements.txt but its own nested file. B must
//   get its own environment (never A's .pth), while C, identical to A, reuses A's env image;
// - a setup.py writes the environment it sees (the host's proxy password among it, if setup saw
//   it) to /var/tmp, to HOME and into site-packages: only site-packages reaches the env image,
//   and it never holds the password;
// - the same setup.py connects to a service listening on the docker0 gateway address, directly and
//   through setup's proxy, and to a host outside the allowlist: all fail, the service sees nothing,
//   while a registry named in the user's [env] allow_hosts stays reachable;
// - go repository A keeps a secret in its own package; repository B has the same go.mod, so it
//   reuses A's env image (the control), and its test searches the image's warmed build cache for
//   A's secret: the cache holds dependency and standard-library packages only, never A's own.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIX_PATCH, answerWith } from '../helpers/python-fixture.js';
import { attackFileHooks } from './support/hooks.js';
import { attack } from './support/record.js';
import { expectCanarySafe, runScene, type Outcome } from './support/scene.js';

const docker = new Docker();
const { scene, cleanups } = attackFileHooks();
const madeImages = new Set<string>();
const nonce = randomBytes(6).toString('hex');

afterAll(async () => {
  for (const id of madeImages)
    await docker
      .getImage(id)
      .remove({ force: true })
      .catch(() => undefined);
});

/** Run a command in a throwaway container of `image`; its stdout. */
async function inImage(image: string, script: string): Promise<string> {
  const container = await docker.createContainer({
    Image: image,
    Entrypoint: ['/bin/sh', '-c', script],
    Cmd: [],
    HostConfig: { NetworkMode: 'none' },
  });
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: false });
    const chunks: Buffer[] = [];
    const done = new Promise<void>((resolve) => {
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', resolve);
    });
    await container.start();
    await container.wait();
    await done;
    // strip the 8-byte multiplexing headers
    const raw = Buffer.concat(chunks);
    const out: Buffer[] = [];
    for (let i = 0; i + 8 <= raw.length;) {
      const size = raw.readUInt32BE(i + 4);
      out.push(raw.subarray(i + 8, i + 8 + size));
      i += 8 + size;
    }
    return Buffer.concat(out).toString('utf8');
  } finally {
    await container.remove({ force: true });
  }
}

const track = (out: Outcome): Outcome => {
  if (out.state.image?.env) madeImages.add(out.state.image?.env.id);
  return out;
};

describe('the env image cache: a nested requirement file that differs', () => {
  const evilSetup = `# ${nonce}
import os, sysconfig
site = sysconfig.get_paths()["purelib"]
with open(os.path.join(site, "zz_repo_a.pth"), "w") as f:
    f.write("import sys; sys.stderr.write('POISONED-BY-REPO-A\\\\n')\\n")
from setuptools import setup
setup(name="evil", version="1.0", py_modules=[])
`;
  const repoA = {
    'requirements.txt': '-r requirements/base.txt\n',
    'requirements/base.txt': './evil\n',
    'evil/setup.py': evilSetup,
  };

  it("gets its own environment, never repository A's, while an identical repository reuses A's env image", async () => {
    const a = track(await runScene(await scene({ files: repoA, answers: [{ answer: answerWith(FIX_PATCH) }] })));
    const b = track(
      await runScene(
        await scene({
          files: {
            'requirements.txt': '-r requirements/base.txt\n',
            'requirements/base.txt': `# repository B (${nonce}) needs nothing\n`,
          },
          answers: [{ answer: answerWith(FIX_PATCH) }],
        }),
      ),
    );
    const cScene = await scene({ files: repoA, answers: [{ answer: answerWith(FIX_PATCH) }] });
    const c = track(await runScene(cScene));
    await attack(
      "a nested requirement file's local package drops a .pth; another repository shares requirements.txt",
      "B gets its own environment without A's .pth; an identical C reuses A's env image",
      async () => {
        // A really is poisoned (its own business): the .pth runs in its sandbox
        expect(a.state.image?.env, a.result.stderr.slice(-3000)).not.toBeNull();
        expect(a.state.baseline?.stderr_tail).toContain('POISONED-BY-REPO-A');
        // B never sees it, and never got A's image
        expect(b.state.image?.id).not.toBe(a.state.image?.id);
        expect(JSON.stringify(b.state)).not.toContain('POISONED-BY-REPO-A');
        expect(b.state.status).toBe('stable');
        // the control: identical content, same env image, setup not run again
        expect(c.state.image?.env?.id).toBe(a.state.image?.env?.id);
        expect(c.result.stderr).not.toContain('installing dependencies into');
        await expectCanarySafe(cScene, c);
        return `B: ${b.state.image?.env ? 'own env image' : 'toolchain image (nothing installed)'}, no .pth; C reused ${a.state.image?.env!.ref}`;
      },
    );
  }, 900_000);
});

describe('what setup writes and what it reaches', () => {
  let service: Server;
  let gateway = '';
  let port = 0;
  let hits = 0;

  beforeAll(async () => {
    const bridge = (await docker.getNetwork('bridge').inspect()) as { IPAM: { Config: { Gateway?: string }[] } };
    gateway = bridge.IPAM.Config.find((c) => c.Gateway)?.Gateway ?? '172.17.0.1';
    service = createServer((_req, res) => {
      hits++;
      res.end('host service answered\n');
    });
    await new Promise<void>((resolve, reject) => {
      service.once('error', reject);
      service.listen(0, gateway, () => resolve());
    });
    port = (service.address() as { port: number }).port;
    cleanups.push(() => new Promise<void>((resolve) => service.close(() => resolve())));
  });

  it('only site-packages reaches the env image, without the host proxy password; the gateway is unreachable, the allowed registry is not', async () => {
    const password = `hbproxypw${randomBytes(8).toString('hex')}`;
    const probe = `# ${nonce}
import json, os, socket, sysconfig, urllib.request
site = sysconfig.get_paths()["purelib"]
out = os.path.join(site, "hb_probe.json")
if not os.path.exists(out):
    r = {}
    for name, path in [("var_tmp", "/var/tmp/hb-written"), ("home", os.path.join(os.environ.get("HOME", "/tmp"), ".hb-written")), ("etc", "/etc/hb-written")]:
        try:
            with open(path, "w") as f:
                f.write(json.dumps(dict(os.environ)))
            r[name] = "written"
        except Exception as e:
            r[name] = "refused: %s" % e
    s = socket.socket(); s.settimeout(5)
    try:
        s.connect(("${gateway}", ${port})); r["gateway_direct"] = "connected"
    except Exception as e:
        r["gateway_direct"] = "failed: %s" % e
    s.close()
    def get(url):
        try:
            return "ok %s" % urllib.request.urlopen(url, timeout=30).status
        except Exception as e:
            return "failed: %s" % e
    r["gateway_via_proxy"] = get("http://${gateway}:${port}/")
    r["other_host_via_proxy"] = get("https://example.com/")
    r["registry_via_proxy"] = get("https://registry.npmjs.org/is-number")
    r["env"] = dict(os.environ)
    with open(out, "w") as f:
        f.write(json.dumps(r))
from setuptools import setup
setup(name="calc", version="1.0", py_modules=["calc"])
`;
    const s = await scene({
      files: { 'setup.py': probe },
      answers: [{ answer: answerWith(FIX_PATCH) }],
      config: '[env]\nallow_hosts = ["registry.npmjs.org"]\n',
      // the host's proxy, with a password: the setup proxy may use it upstream, setup must never see it
      // (the registry is in NO_PROXY, so it is reached directly through the setup proxy)
      env: { HTTPS_PROXY: `http://hbuser:${password}@proxy.invalid:3128`, NO_PROXY: 'registry.npmjs.org' },
    });
    const out = track(await runScene(s));
    await attack(
      'setup writes the environment it sees to /var/tmp, HOME and site-packages, and probes the network',
      'only site-packages is kept, without the proxy password; the docker0 gateway and other hosts are unreachable; an allowed registry answers',
      async () => {
        expect(out.state.image?.env, out.result.stderr.slice(-3000)).not.toBeNull();
        const image = out.state.image!.env!.id;
        const listing = await inImage(
          image,
          'cat /opt/hammer/venv/lib/python3*/site-packages/hb_probe.json; echo; for f in /var/tmp/hb-written /tmp/.hb-written /etc/hb-written; do [ ! -e "$f" ] || echo "present: $f"; done',
        );
        const [json, files] = [listing.split('\n')[0]!, listing.split('\n').slice(1).join(' ')];
        const r = JSON.parse(json) as Record<string, unknown>;
        expect(r['var_tmp']).toMatch(/^refused: .*Read-only file system/);
        expect(r['etc']).toMatch(/^refused/);
        expect(files).not.toContain('present:');
        expect(json).not.toContain(password);
        expect(out.result.stderr).not.toContain(password);
        expect(r['gateway_direct']).toMatch(/^failed/);
        expect(r['gateway_via_proxy']).toMatch(/^failed: .*403/);
        expect(r['other_host_via_proxy']).toMatch(/^failed/);
        expect(hits).toBe(0);
        expect(r['registry_via_proxy']).toBe('ok 200');
        await expectCanarySafe(s, out);
        return `var_tmp ${String(r['var_tmp']).slice(0, 40)}; gateway ${String(r['gateway_direct']).slice(0, 30)}; registry ${String(r['registry_via_proxy'])}`;
      },
    );
  }, 600_000);
});

describe("the go env image's warmed build cache", () => {
  const GO_MOD = `module example.com/calc\n\ngo 1.24\n`;
  const secret = `HBSECRET_${nonce}_OF_REPO_A`;
  // B's probe builds the prefix at run time, so its own compiled test holds only the reversed text
  const PROBE = `package probe

import (
\t"os"
\t"path/filepath"
\t"strings"
\t"testing"
)

func rev(s string) string {
\tb := []byte(s)
\tfor i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
\t\tb[i], b[j] = b[j], b[i]
\t}
\treturn string(b)
}

func TestProbe(t *testing.T) {
\tprefix := rev("_TERCESBH")
\tfiles := 0
\t_ = filepath.Walk("/opt/hammer/go/cache", func(p string, info os.FileInfo, err error) error {
\t\tif err != nil || info.IsDir() || info.Size() > 64<<20 {
\t\t\treturn nil
\t\t}
\t\tfiles++
\t\tb, _ := os.ReadFile(p)
\t\tif i := strings.Index(string(b), prefix); i >= 0 {
\t\t\tend := i + 48
\t\t\tif end > len(b) {
\t\t\t\tend = len(b)
\t\t\t}
\t\t\tt.Errorf("FOUND %q in %s", b[i:end], p)
\t\t}
\t\treturn nil
\t})
\tt.Logf("PROBED %d cache files", files)
}
`;
  const goFiles = (extra: Record<string, string>) => ({ 'go.mod': GO_MOD, ...extra });
  const goScene = (files: Record<string, string>) =>
    scene({
      files: goFiles(files),
      answers: [{ answer: 'NO_CHANGES' }],
      maxIterations: 1,
      testCommand: 'go test -v ./...',
      config: '[sandbox]\ntoolchain = "go"\n',
    });

  it("holds no package of the repository: another repository with the same go.mod reuses the image but never finds A's code in it", async () => {
    const a = track(
      await runScene(
        await goScene({
          'secret/secret.go': `package secret\n\nvar Value = "${secret}"\n\nfunc Get() string { return Value }\n`,
          'secret/secret_test.go': `package secret\n\nimport "testing"\n\nfunc TestGet(t *testing.T) {\n\tif Get() == "" {\n\t\tt.Fatal("empty")\n\t}\n}\n`,
        }),
      ),
    );
    const bScene = await goScene({ 'probe/probe_test.go': PROBE });
    const b = track(await runScene(bScene));
    await attack(
      "a go repository reuses another's env image (same go.mod) and searches its build cache for the other's code",
      'the image is reused, and its build cache holds no package of repository A',
      async () => {
        expect(a.state.image?.env, a.result.stderr.slice(-3000)).not.toBeNull();
        // the control: same key, so the same env image, setup not run again
        expect(b.state.image?.env?.id).toBe(a.state.image?.env?.id);
        expect(b.result.stderr).not.toContain('installing dependencies into');
        const out = `${b.state.baseline?.stdout_tail ?? ''}\n${b.state.baseline?.stderr_tail ?? ''}`;
        expect(out).toMatch(/PROBED [1-9]\d* cache files/);
        expect(out).not.toContain('FOUND');
        expect(JSON.stringify(b.state)).not.toContain(secret);
        expect(b.summary).not.toContain(secret);
        await expectCanarySafe(bScene, b);
        return `B reused ${a.state.image?.env?.ref}; ${/PROBED (\d+)/.exec(out)?.[1]} cache files probed, none holds A's code`;
      },
    );
  }, 900_000);
});
