import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { networkProofsPath, networkProofStore } from '../../../src/api/network-proofs.js';
import type { KeptProof } from '../../../src/sandbox/kubernetes/network-proof.js';

let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-proofs-'));
  env = { XDG_STATE_HOME: dir, HOME: dir };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const proof = (fp: string, at = '2026-11-29T10:00:00.000Z'): KeptProof => ({
  fingerprint: fp.repeat(64),
  network: 'policy',
  detail: 'proven',
  proved_at: at,
  depends: { server: 'https://k:6443', namespace: 'hb', version: 'v1.36.0', other_policies: 0 },
});

describe('networkProofStore', () => {
  it('keeps proofs sealed in the user state directory and reads them back', async () => {
    const store = networkProofStore(env);
    expect(await store.read('a'.repeat(64))).toBeNull();
    await store.write(proof('a'));
    await store.write(proof('b'));
    expect(await networkProofStore(env).read('a'.repeat(64))).toEqual(proof('a'));
    const text = await readFile(networkProofsPath(env), 'utf8');
    expect(text).toMatch(/^\{\n {2}"mac": "hmac-sha256:[0-9a-f]{64}",\n/);
  });

  it('believes no proof it did not write: an edited file, or one sealed under another key', async () => {
    await networkProofStore(env).write(proof('a'));
    const path = networkProofsPath(env);
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('"policy"', '"policy" '));
    expect(await networkProofStore(env).read('a'.repeat(64))).toBeNull();
    await networkProofStore(env).write(proof('a'));
    expect(await networkProofStore({ ...env, HAMMER_STATE_KEY: 'k'.repeat(40) }).read('a'.repeat(64))).toBeNull();
  });

  it('proves one set of facts once in a process: a second asker gets the first proof', async () => {
    const store = networkProofStore(env);
    let proved = 0;
    const prove = async () => {
      proved++;
      await new Promise((r) => setTimeout(r, 50));
      return proof('c');
    };
    const [x, y] = await Promise.all([store.once('c'.repeat(64), prove), store.once('c'.repeat(64), prove)]);
    expect(proved).toBe(1);
    expect(x).toEqual(y);
  });
});
