// What a declared toolchain version asks for, and whether a release gives it. Node.js ranges are
// semver (npm's semver), Python's are PEP 440 specifiers (@renovatebot/pep440): both are subtle
// enough that the libraries their ecosystems use win over a hand-written subset.
import { satisfies as pep440Satisfies } from '@renovatebot/pep440';
import semver from 'semver';
import type { ToolchainRelease } from './catalog.js';

/** A requirement on a toolchain's version. */
export type VersionConstraint =
  /** Anything will do ("stable", "node", "system"). */
  | { kind: 'any' }
  /** This version or newer (go.mod's go and toolchain lines, rust-version, a numeric Rust channel). */
  | { kind: 'at-least'; version: string }
  /** A release in this series: "3.12" is 3.12.x (a .python-version pin, an override). */
  | { kind: 'series'; version: string }
  /** An npm semver range (engines.node, .nvmrc). */
  | { kind: 'semver'; range: string }
  /** A PEP 440 specifier set (requires-python). */
  | { kind: 'pep440'; specifier: string }
  /** Something no release can be (a nightly Rust, a PyPy): `reason` says what. */
  | { kind: 'unavailable'; reason: string };

/** The numeric parts of a dotted version, ignoring a pre-release suffix ("1.22rc1" → [1, 22, 0]). */
export function versionParts(version: string): number[] {
  const m = /^v?(\d+(?:\.\d+)*)/.exec(version.trim());
  if (!m) return [];
  const parts = m[1]!.split('.').map(Number);
  while (parts.length < 3) parts.push(0);
  return parts;
}

/** Compare two dotted versions numerically (missing parts are 0). */
export function compareVersions(a: string, b: string): number {
  const pa = versionParts(a);
  const pb = versionParts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether a release meets the constraint. */
export function satisfies(constraint: VersionConstraint, release: ToolchainRelease): boolean {
  switch (constraint.kind) {
    case 'any':
      return true;
    case 'at-least':
      return compareVersions(release.floor, constraint.version) >= 0;
    case 'series': {
      const want = constraint.version.replace(/^v/, '').split('.');
      const have = release.floor.split('.');
      return want.every((part, i) => Number(part) === Number(have[i]));
    }
    case 'semver':
      return semver.satisfies(release.floor, constraint.range, { loose: true });
    case 'pep440':
      return pep440Satisfies(release.floor, constraint.specifier);
    case 'unavailable':
      return false;
  }
}

/** The constraint in words, e.g. "1.22 or newer", "matching >=3.9". */
export function describeConstraint(constraint: VersionConstraint): string {
  switch (constraint.kind) {
    case 'any':
      return 'any version';
    case 'at-least':
      return `${constraint.version} or newer`;
    case 'series':
      return `${constraint.version}.x`;
    case 'semver':
      return `matching ${constraint.range}`;
    case 'pep440':
      return `matching ${constraint.specifier}`;
    case 'unavailable':
      return constraint.reason;
  }
}
