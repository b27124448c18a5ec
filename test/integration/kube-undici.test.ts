// An installed hammer-box gets @kubernetes/client-node with undici 8 nested under it (npm applies the
// checkout's override to undici 7 only at a project's root), and undici 8 does not load on Node
// before 22.19. The resolve hook kube-load.ts registers sends the library's `undici` imports to
// hammer-box's own undici 7. Here, in a fresh node process on the built dist/: a stand-in library
// laid out as npm lays the real one, whose nested undici throws when loaded.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const kubeLoad = pathToFileURL(resolve('dist/api/kube-load.js')).href;
let dir: string;
let library: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-kube-undici-'));
  const lib = join(dir, 'node_modules', '@kubernetes', 'client-node');
  const nested = join(lib, 'node_modules', 'undici');
  await mkdir(join(lib, 'dist'), { recursive: true });
  await mkdir(nested, { recursive: true });
  await writeFile(
    join(lib, 'package.json'),
    JSON.stringify({ name: '@kubernetes/client-node', version: '2.0.0', type: 'module', main: 'dist/index.js' }),
  );
  await writeFile(
    join(lib, 'dist', 'index.js'),
    "import { Agent, fetch } from 'undici';\nexport const loaded = `${typeof Agent} ${typeof fetch}`;\n",
  );
  await writeFile(
    join(nested, 'package.json'),
    JSON.stringify({ name: 'undici', version: '8.13.1', main: 'index.js' }),
  );
  // the names undici exports (so the import links), then the failure undici 8 meets on an older Node
  await writeFile(
    join(nested, 'index.js'),
    "exports.Agent = null;\nexports.fetch = null;\nthrow new Error('the nested undici 8 was loaded');\n",
  );
  library = pathToFileURL(join(lib, 'dist', 'index.js')).href;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Import the stand-in library in a fresh node process, with or without the hook first. */
async function importLibrary(hook: boolean): Promise<{ ok: boolean; out: string }> {
  const script = [
    hook ? `const { redirectUndici } = await import(${JSON.stringify(kubeLoad)}); redirectUndici();` : '',
    `const m = await import(${JSON.stringify(library)}); console.log(m.loaded);`,
  ].join('\n');
  try {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 });
    return { ok: true, out: stdout.trim() };
  } catch (err) {
    return { ok: false, out: String((err as { stderr?: string }).stderr ?? err) };
  }
}

describe('the Kubernetes client library and undici', () => {
  it('without the hook, the library loads the undici nested under it', async () => {
    const r = await importLibrary(false);
    expect(r.ok).toBe(false);
    expect(r.out).toContain('the nested undici 8 was loaded');
  });

  it("with the hook, the library's undici imports are hammer-box's own undici", async () => {
    const r = await importLibrary(true);
    expect(r, r.out).toEqual({ ok: true, out: 'function function' });
  });
});
