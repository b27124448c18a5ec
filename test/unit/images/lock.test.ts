import { describe, expect, it } from 'vitest';
import { checkArchive, type ArchivedImage } from '../../../src/images/archive-check.js';
import {
  diffContent,
  diffLocks,
  lockDigest,
  lockText,
  parseLock,
  pipPins,
  type ImageLock,
} from '../../../src/images/lock.js';
import { LOCK_LABELS } from '../../../src/images/lock-label.js';
import { lockFromFacts, parseProbe } from '../../../src/images/lock-probe.js';

const BASE = `sha256:${'b'.repeat(64)}`;
const lock = (over: Partial<ImageLock> = {}): ImageLock => ({
  schema: 1,
  kind: 'toolchain',
  key: '0123456789ab',
  from: { ref: 'hammer-box/base:trixie', id: BASE },
  toolchain: { name: 'python', version: 'Python 3.13.5', checksum: `sha256:${'c'.repeat(64)}` },
  debian: ['git=1:2.47.3-0+deb13u1', 'apt=3.0.4'],
  packages: [],
  ...over,
});

describe('a lock', () => {
  it('has one text and digest whatever the order of its entries', () => {
    const a = lock();
    const b = lock({ debian: [...a.debian].reverse() });
    expect(lockText(a)).toBe(lockText(b));
    expect(lockDigest(a)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(lockDigest(a)).toBe(lockDigest(b));
    expect(parseLock(lockText(a))).toEqual(parseLock(lockText(b)));
  });

  it('refuses what is not a lock (a label or file from outside)', () => {
    expect(parseLock('{')).toBe(null);
    expect(parseLock(JSON.stringify({ ...lock(), debian: ['git=1; rm -rf /'] }))).toBe(null);
    expect(parseLock(JSON.stringify({ ...lock(), extra: 1 }))).toBe(null);
  });

  it('names what changed between two locks: packages, the toolchain, what it was made from', () => {
    const after = lock({
      debian: ['git=1:2.47.3-0+deb13u2', 'curl=8.14.1-2'],
      toolchain: { name: 'python', version: 'Python 3.13.6' },
      from: { ref: 'hammer-box/base:trixie', id: `sha256:${'d'.repeat(64)}` },
    });
    expect(diffLocks(lock(), after)).toEqual([
      'hammer-box/base:trixie bbbbbbbbbbbb -> dddddddddddd',
      'toolchain Python 3.13.5 -> Python 3.13.6',
      '- apt 3.0.4',
      '+ curl 8.14.1-2',
      'git 1:2.47.3-0+deb13u1 -> 1:2.47.3-0+deb13u2',
    ]);
    // the content alone: a base made again (another id) with the same packages is the same environment
    expect(
      diffContent(lock(), lock({ from: { ref: 'hammer-box/base:trixie', id: `sha256:${'e'.repeat(64)}` } })),
    ).toEqual([]);
  });
});

describe("an env lock's pip pins", () => {
  it('are its Python dependencies at their exact versions, and nothing of another ecosystem or shape', () => {
    const env = lock({
      kind: 'env',
      debian: [],
      packages: [
        'pypi requests 2.32.3',
        'npm left-pad 1.3.0',
        'pypi pytest 8.3.5',
        'pypi bad;name 1.0',
        'pypi ok-name 1.0;rm',
        'pypi zope.interface 7.2',
      ],
    });
    expect(pipPins(env)).toEqual(['pytest==8.3.5', 'requests==2.32.3', 'zope.interface==7.2']);
  });
});

describe('the lock probe', () => {
  it('reads what the image said, line by line, and nothing malformed', () => {
    const facts = parseProbe(
      [
        'deb git=1:2.47.3-0+deb13u1',
        'deb evil=1; echo',
        `tool python3 ${'a'.repeat(64)} Python 3.13.5`,
        'pkg npm is-number 7.0.0',
        'pkg npm @scope/x 1.0.0',
        'pkg pip a b c d',
        'HAMMER_LOCK_DONE',
      ].join('\n'),
      'img',
    );
    expect(facts.debian).toEqual(['git=1:2.47.3-0+deb13u1']);
    expect(facts.packages).toEqual(['npm is-number 7.0.0', 'npm @scope/x 1.0.0']);
    const env = lockFromFacts(facts, {
      kind: 'env',
      key: 'aaaaaaaaaaaa',
      from: { ref: 't', id: BASE },
      toolchain: 'python',
    });
    expect(env).toMatchObject({ debian: [], packages: ['npm @scope/x 1.0.0', 'npm is-number 7.0.0'] });
    expect(env.toolchain).toEqual({ name: 'python', version: 'Python 3.13.5', checksum: `sha256:${'a'.repeat(64)}` });
  });

  it('is no lock when the probe did not finish', () => {
    expect(() => parseProbe('deb git=1\n', 'img')).toThrow(/did not finish/);
  });
});

describe('an image archive', () => {
  const labelled = (l: ImageLock, extra: Record<string, string>): Record<string, string> => ({
    ...extra,
    [LOCK_LABELS.lock]: lockText(l),
    [LOCK_LABELS.digest]: lockDigest(l),
  });
  const toolchain: ArchivedImage = {
    id: `sha256:${'1'.repeat(64)}`,
    tags: ['hammer-box/python:0123456789ab'],
    labels: labelled(lock(), { 'hammer-box.context-hash': '0123456789ab' }),
    lock: lock(),
  };
  const base: ArchivedImage = { id: BASE, tags: ['hammer-box/base:trixie'], labels: {}, lock: null };

  it("is consistent when every image is hammer-box's, keyed by its tag, and what it was made from is there", () => {
    expect(checkArchive([toolchain, base], new Set())).toEqual([]);
    expect(checkArchive([toolchain], new Set([BASE]))).toEqual([]);
  });

  it("names every problem: a foreign tag, a key that is not the tag's, a missing parent, a lock that does not match its digest", () => {
    expect(checkArchive([{ ...base, tags: ['debian:latest'] }], new Set())).toEqual([
      'debian:latest is not a hammer-box image (only hammer-box/<toolchain>, <toolchain>-env and the base)',
    ]);
    expect(checkArchive([{ ...toolchain, tags: ['hammer-box/python:ffffffffffff'] }, base], new Set())).toContain(
      "hammer-box/python:ffffffffffff: its key label (0123456789ab) is not its tag's ffffffffffff",
    );
    expect(checkArchive([toolchain], new Set())).toEqual([
      'hammer-box/python:0123456789ab: it was made from hammer-box/base:trixie bbbbbbbbbbbb, which neither the archive nor the engine holds',
    ]);
    const forged = {
      ...toolchain,
      labels: { ...toolchain.labels, [LOCK_LABELS.digest]: `sha256:${'0'.repeat(64)}` },
      lock: null,
    };
    expect(checkArchive([forged, base], new Set())).toContain(
      'hammer-box/python:0123456789ab: its lock does not match its lock digest label',
    );
  });
});
