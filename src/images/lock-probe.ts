// Reading an image's lock out of the image: a throwaway, network-less container of it runs a POSIX
// sh probe that lists the Debian packages (dpkg-query), the toolchain's exact version and the
// checksum of its binary, and the dependencies the env image carries (node_modules' package.json
// files, the venv's dist-info directories, Go's module cache, cargo's crate cache). Its output is
// data from the image: parsed line by line, every line checked, capped.
import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import { HammerError, throwIfAborted } from '../errors.js';
import { engineError } from './engine.js';
import { normalizeLock, type ImageLock } from './lock.js';

/** The most probe output read (a lock of 50,000 dependencies fits). */
const MAX_PROBE_BYTES = 8 * 1024 * 1024;

/** The probe: one `deb`, `tool` or `pkg` line per fact. */
export const LOCK_PROBE = String.raw`
dpkg-query -W -f='deb ${'$'}{Package}=${'$'}{Version}\n' 2>/dev/null
for t in node python3 go rustc cargo; do
  p=$(command -v "$t" 2>/dev/null) || continue
  v=$("$t" --version 2>/dev/null || "$t" version 2>/dev/null) || continue
  s=$(sha256sum "$(readlink -f "$p")" 2>/dev/null | cut -d' ' -f1)
  printf 'tool %s %s %s\n' "$t" "$s" "$(printf '%s' "$v" | head -n 1)"
done
if [ -d /node_modules ] && command -v node >/dev/null 2>&1; then
  node -e '
    const fs = require("fs"), path = require("path");
    const seen = new Set();
    const visit = (dir, depth) => {
      if (depth > 12) return;
      let names = [];
      try { names = fs.readdirSync(dir); } catch { return; }
      for (const n of names) {
        if (n === ".bin") continue;
        const p = path.join(dir, n);
        if (n.startsWith("@")) { visit(p, depth); continue; }
        if (n === ".pnpm") { for (const m of fs.readdirSync(p)) visit(path.join(p, m, "node_modules"), depth + 1); continue; }
        try {
          const j = JSON.parse(fs.readFileSync(path.join(p, "package.json"), "utf8"));
          if (typeof j.name === "string" && typeof j.version === "string") seen.add(j.name + " " + j.version);
        } catch {}
        visit(path.join(p, "node_modules"), depth + 1);
      }
    };
    visit("/node_modules", 0);
    for (const s of seen) console.log("pkg npm " + s);
  ' 2>/dev/null
fi
for d in /opt/hammer/venv/lib/python*/site-packages/*.dist-info; do
  [ -d "$d" ] || continue
  b=${'$'}{d##*/}; b=${'$'}{b%.dist-info}
  printf 'pkg pypi %s %s\n' "${'$'}{b%-*}" "${'$'}{b##*-}"
done
if [ -d /opt/hammer/go/pkg/mod/cache/download ]; then
  (cd /opt/hammer/go/pkg/mod/cache/download && find . -path '*/@v/*.zip' | sed -e 's#^\./##' -e 's#/@v/# #' -e 's#\.zip$##' -e 's#^#pkg go #')
fi
for c in /opt/hammer/cargo/registry/cache/*/*.crate; do
  [ -f "$c" ] || continue
  b=${'$'}{c##*/}; b=${'$'}{b%.crate}
  printf 'pkg cargo %s\n' "$(printf '%s' "$b" | sed -E 's/-([0-9][^-]*(-[^-]+)?)$/ \1/')"
done
echo HAMMER_LOCK_DONE
`;

/** What the probe saw, before it is put in a lock. */
export interface ProbedFacts {
  debian: string[];
  tools: { name: string; sha256: string; version: string }[];
  packages: string[];
}

const DEB = /^deb ([a-z0-9][a-z0-9+.-]*(?::[a-z0-9]+)?=[A-Za-z0-9.+~:-]+)$/;
const TOOL = /^tool (node|python3|go|rustc|cargo) ([0-9a-f]{64}|) (.{1,200})$/;
const PKG = /^pkg (npm|pypi|go|cargo) (\S{1,214}) (\S{1,128})$/;

/** Parse the probe's output; IMAGE_BUILD_FAILED when it did not finish (a probe that could not run is no lock). */
export function parseProbe(stdout: string, image: string): ProbedFacts {
  const lines = stdout.split('\n');
  if (!lines.includes('HAMMER_LOCK_DONE'))
    throw new HammerError('IMAGE_BUILD_FAILED', `reading the lock of ${image}: the probe did not finish`);
  const facts: ProbedFacts = { debian: [], tools: [], packages: [] };
  for (const line of lines) {
    const d = DEB.exec(line);
    if (d) {
      facts.debian.push(d[1]!);
      continue;
    }
    const t = TOOL.exec(line);
    if (t) {
      facts.tools.push({ name: t[1]!, sha256: t[2]!, version: t[3]!.trim() });
      continue;
    }
    const p = PKG.exec(line);
    if (p) facts.packages.push(`${p[1]} ${p[2]} ${p[3]}`);
  }
  return facts;
}

/** The lock of an image from what the probe saw: its kind, key and what it was made from. */
export function lockFromFacts(
  facts: ProbedFacts,
  of: { kind: ImageLock['kind']; key: string; from: ImageLock['from']; toolchain: string },
): ImageLock {
  // the toolchain's own binary: node, python3, go or rustc
  const main = { node: 'node', python: 'python3', go: 'go', rust: 'rustc' }[of.toolchain];
  const tool = facts.tools.find((t) => t.name === main);
  return normalizeLock({
    schema: 1,
    kind: of.kind,
    key: of.key,
    from: of.from,
    ...(tool
      ? {
          toolchain: {
            name: of.toolchain,
            version: tool.version,
            ...(tool.sha256 ? { checksum: `sha256:${tool.sha256}` } : {}),
          },
        }
      : {}),
    debian: of.kind === 'toolchain' ? facts.debian : [],
    packages: of.kind === 'env' ? facts.packages : [],
  });
}

/** Run the lock probe in a throwaway container of `image` and return what it saw. */
export async function probeImage(docker: Dockerode, image: string, signal?: AbortSignal): Promise<ProbedFacts> {
  throwIfAborted(signal, `reading the lock of ${image}`);
  let container: Dockerode.Container;
  try {
    container = await docker.createContainer({
      Image: image,
      Entrypoint: ['/bin/sh', '-c'],
      Cmd: [LOCK_PROBE],
      User: '10001:10001',
      WorkingDir: '/',
      // the image's own PATH (a Go image's names its release's bin directory)
      Env: ['HOME=/tmp', 'LC_ALL=C'],
      Labels: { 'hammer-box.managed-by': 'hammer-box', 'hammer-box.purpose': 'lock-probe' },
      HostConfig: {
        NetworkMode: 'none',
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        ReadonlyRootfs: true,
        AutoRemove: false,
      },
      abortSignal: signal,
    });
  } catch (err) {
    throw engineError(err, `reading the lock of ${image}`, signal);
  }
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true, abortSignal: signal });
    const out: Buffer[] = [];
    let bytes = 0;
    const stdout = new PassThrough().on('data', (c: Buffer) => {
      if (bytes < MAX_PROBE_BYTES) out.push(c);
      bytes += c.length;
    });
    docker.modem.demuxStream(stream, stdout, new PassThrough().resume());
    const ended = new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', () => resolve());
    });
    await container.start({ abortSignal: signal });
    await container.wait({ abortSignal: signal });
    await ended;
    if (bytes > MAX_PROBE_BYTES)
      throw new HammerError('IMAGE_BUILD_FAILED', `reading the lock of ${image}: more than 8 MiB of facts`);
    return parseProbe(Buffer.concat(out).toString('utf8'), image);
  } catch (err) {
    throw engineError(err, `reading the lock of ${image}`, signal);
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}
