// Where an image goes in a registry, and the credentials a push takes from Docker's config.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registryAuth, registryRef, splitRef } from '../../../src/images/registry-push.js';

describe('registryRef and splitRef', () => {
  it('puts the local tag under the registry', () => {
    expect(registryRef('localhost:5000/hammer/', 'hammer-box/python:9f221c06fa49')).toBe(
      'localhost:5000/hammer/hammer-box/python:9f221c06fa49',
    );
    expect(splitRef('localhost:5000/hammer/hammer-box/python:9f22')).toEqual({
      repo: 'localhost:5000/hammer/hammer-box/python',
      tag: '9f22',
    });
    // a port is not a tag
    expect(splitRef('localhost:5000/image')).toEqual({ repo: 'localhost:5000/image', tag: 'latest' });
  });
});

describe('registryAuth', () => {
  it("reads the registry host's auths entry, and nothing else", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hb-docker-config-'));
    try {
      const auth = Buffer.from('user:pa:ss').toString('base64');
      await writeFile(join(dir, 'config.json'), JSON.stringify({ auths: { 'reg.example:5000': { auth } } }));
      const env = { DOCKER_CONFIG: dir };
      expect(await registryAuth('reg.example:5000/prefix', env)).toEqual({
        username: 'user',
        password: 'pa:ss',
        serveraddress: 'reg.example:5000',
      });
      expect(await registryAuth('other.example/prefix', env)).toBeUndefined();
      expect(await registryAuth('reg.example:5000', { DOCKER_CONFIG: join(dir, 'missing') })).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
