// An image's lock: what went into it, as data beside its key. A toolchain image's lock holds the
// base image it was built FROM (by id), every Debian package in it at its exact version, and the
// toolchain's exact version (with the checksum of a binary fetched from a registry); an env
// image's lock holds the toolchain image it was committed from and every dependency setup installed
// at its resolved version. Two images of the same key whose locks differ are a rebuild that drifted.
// Pure: the probe that reads a lock out of an image is in lock-probe.ts.
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** The lock schema's version (a lock of another version is not read). */
export const LOCK_SCHEMA = 1;

/** One Debian package at its exact version, as dpkg names them ("git=1:2.47.3-0+deb13u1"). */
const debianEntry = z.string().regex(/^[a-z0-9][a-z0-9+.-]*(?::[a-z0-9]+)?=[A-Za-z0-9.+~:-]+$/);
/** One dependency at its resolved version: "<ecosystem> <name> <version>". */
const packageEntry = z.string().regex(/^(?:npm|pypi|go|cargo) \S{1,214} \S{1,128}$/);

/** What went into an image. */
export const ImageLockSchema = z.strictObject({
  schema: z.literal(LOCK_SCHEMA),
  kind: z.enum(['toolchain', 'env']),
  /** The image's key: the content hash its tag ends with. */
  key: z.string().regex(/^[0-9a-f]{12}$/),
  /** What it was built FROM (toolchain images: the base image) or committed from (env images: the toolchain image). */
  from: z.strictObject({ ref: z.string().max(200), id: z.string().regex(/^sha256:[0-9a-f]{64}$/) }),
  /** The toolchain's name, its exact version as it reports it, and a binary's checksum when one was fetched. */
  toolchain: z
    .strictObject({
      name: z.string().max(40),
      version: z.string().max(200),
      checksum: z.string().max(200).optional(),
    })
    .optional(),
  /** Every Debian package in the image (toolchain images), sorted. */
  debian: z.array(debianEntry).max(5000),
  /** Every dependency setup installed (env images), sorted. */
  packages: z.array(packageEntry).max(50_000),
});
export type ImageLock = z.infer<typeof ImageLockSchema>;

/** A lock with its entries sorted and each once, so equal contents give equal text. */
export function normalizeLock(lock: ImageLock): ImageLock {
  const sorted = (xs: readonly string[]): string[] => [...new Set(xs)].sort();
  return { ...lock, debian: sorted(lock.debian), packages: sorted(lock.packages) };
}

/** The lock as canonical JSON (keys in a fixed order, entries sorted). */
export function lockText(lock: ImageLock): string {
  const l = normalizeLock(lock);
  return JSON.stringify({
    schema: l.schema,
    kind: l.kind,
    key: l.key,
    from: { ref: l.from.ref, id: l.from.id },
    ...(l.toolchain ? { toolchain: l.toolchain } : {}),
    debian: l.debian,
    packages: l.packages,
  });
}

/** True when two locks hold the same content (see diffContent). */
export function sameContent(a: ImageLock, b: ImageLock): boolean {
  return diffContent(a, b).length === 0;
}

/** The lock's digest: sha256 of its canonical JSON, "sha256:<hex>". */
export function lockDigest(lock: ImageLock): string {
  return `sha256:${createHash('sha256').update(lockText(lock)).digest('hex')}`;
}

/** Parse a lock from outside (a label, a file, a state): null when it is not one. */
export function parseLock(text: string): ImageLock | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = ImageLockSchema.safeParse(raw);
  return parsed.success ? normalizeLock(parsed.data) : null;
}

/** How two locks differ, in lines a person reads ("git 1:2.47.2-0 -> 1:2.47.3-0"), what they were made from included. */
export function diffLocks(before: ImageLock, after: ImageLock): string[] {
  const out: string[] = [];
  if (before.key !== after.key) out.push(`key ${before.key} -> ${after.key}`);
  if (before.from.id !== after.from.id)
    out.push(`${before.from.ref} ${short(before.from.id)} -> ${short(after.from.id)}`);
  return [...out, ...diffContent(before, after)];
}

/**
 * How two locks differ in what is in the image (its Debian packages, toolchain and dependencies),
 * not in what it was made from: a base image debootstrapped again has another id and so its image
 * another key, yet the same content when the packages are the same.
 */
export function diffContent(before: ImageLock, after: ImageLock): string[] {
  const out: string[] = [];
  const tb = before.toolchain;
  const ta = after.toolchain;
  if (tb?.version !== ta?.version) out.push(`toolchain ${tb?.version ?? 'none'} -> ${ta?.version ?? 'none'}`);
  else if (tb?.checksum !== ta?.checksum)
    out.push(`toolchain checksum ${tb?.checksum ?? 'none'} -> ${ta?.checksum ?? 'none'}`);
  out.push(
    ...diffEntries(
      before.debian,
      after.debian,
      (e) => e.split('=')[0]!,
      (e) => e.slice(e.indexOf('=') + 1),
    ),
  );
  out.push(
    ...diffEntries(
      before.packages,
      after.packages,
      (e) => e.split(' ').slice(0, 2).join(' '),
      (e) => e.split(' ')[2]!,
    ),
  );
  return out;
}

function diffEntries(
  before: readonly string[],
  after: readonly string[],
  name: (e: string) => string,
  version: (e: string) => string,
): string[] {
  const index = (xs: readonly string[]): Map<string, string[]> => {
    const m = new Map<string, string[]>();
    for (const x of xs) m.set(name(x), [...(m.get(name(x)) ?? []), version(x)].sort());
    return m;
  };
  const b = index(before);
  const a = index(after);
  const out: string[] = [];
  for (const n of [...new Set([...b.keys(), ...a.keys()])].sort()) {
    const vb = b.get(n)?.join(', ');
    const va = a.get(n)?.join(', ');
    if (vb === va) continue;
    out.push(vb === undefined ? `+ ${n} ${va}` : va === undefined ? `- ${n} ${vb}` : `${n} ${vb} -> ${va}`);
  }
  return out;
}

function short(id: string): string {
  return id.replace(/^sha256:/, '').slice(0, 12);
}

/** A pip requirement name and an exact version as a constraints file may hold them (nothing else passes). */
const PIP_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,212}[A-Za-z0-9])?$/;
const PIP_VERSION = /^[A-Za-z0-9!][A-Za-z0-9.+!_-]{0,127}$/;

/** The lock's Python dependencies as pip pins ("name==version"), sorted; an entry of another shape is left out. */
export function pipPins(lock: ImageLock): string[] {
  const pins: string[] = [];
  for (const entry of lock.packages) {
    const [ecosystem, name, version] = entry.split(' ');
    if (ecosystem === 'pypi' && name && version && PIP_NAME.test(name) && PIP_VERSION.test(version))
      pins.push(`${name}==${version}`);
  }
  return pins.sort();
}
