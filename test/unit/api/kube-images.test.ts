import { describe, expect, it } from 'vitest';
import { pushedDigest } from '../../../src/api/kube-images.js';

const D = `sha256:${'a'.repeat(64)}`;
const E = `sha256:${'e'.repeat(64)}`;

describe('pushedDigest', () => {
  it("is the digest the registry gave the image's push, under that registry only", () => {
    const digests = [`other.example/x/hammer-box/python@${E}`, `reg.example:5000/hb/hammer-box/python@${D}`];
    expect(pushedDigest('reg.example:5000/hb', ['hammer-box/python:9f22'], digests)).toBe(
      `reg.example:5000/hb/hammer-box/python@${D}`,
    );
    expect(pushedDigest('reg.example:5000/hb/', ['hammer-box/python:9f22'], digests)).toBe(
      `reg.example:5000/hb/hammer-box/python@${D}`,
    );
    // a tag that is already the registry's, as the push made it
    expect(pushedDigest('reg.example:5000/hb', ['reg.example:5000/hb/hammer-box/python:9f22'], digests)).toBe(
      `reg.example:5000/hb/hammer-box/python@${D}`,
    );
  });

  it('is none for an image never pushed there, or another repository of it', () => {
    expect(pushedDigest('reg.example:5000/hb', ['hammer-box/python:9f22'], [])).toBeNull();
    expect(
      pushedDigest('reg.example:5000/hb', ['hammer-box/node:1'], [`reg.example:5000/hb/hammer-box/python@${D}`]),
    ).toBeNull();
    expect(
      pushedDigest('reg.example:5000', ['hammer-box/python:1'], [`reg.example:5000/hb/hammer-box/python@${D}`]),
    ).toBeNull();
  });
});
