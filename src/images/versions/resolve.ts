// Which release of a toolchain a repository gets: the one its declaration (or the user's
// override) asks for, out of what can be built. Pure. When nothing available satisfies the
// declaration, TOOLCHAIN_UNAVAILABLE lists what is.
import semver from 'semver';
import { HammerError } from '../../errors.js';
import { availableReleases, defaultRelease, nodeRelease, type ToolchainRelease } from './catalog.js';
import { compareVersions, describeConstraint, satisfies, type VersionConstraint } from './constraint.js';
import type { VersionDeclaration } from './declarations.js';

/** The release chosen for a repository, and what chose it. */
export interface ResolvedToolchain {
  toolchain: string;
  release: ToolchainRelease;
  /** 'declared': a file of the repository; 'override': [sandbox] toolchain_version; 'default': nothing declared. */
  source: 'declared' | 'override' | 'default';
  /** The declaring file and its words (or the override), absent for the default. */
  declaration?: { file: string; text: string };
}

/** Where an override comes from, as shown in messages. */
export const OVERRIDE_SOURCE = '[sandbox] toolchain_version';

/**
 * Choose the release: the override when given, else the declaration, else the default. Among the
 * releases that satisfy, the default wins; otherwise the nearest to it, newer first (the least
 * change from what most repositories run). Node.js may also be any exact version the registry has.
 */
export function resolveToolchainVersion(
  toolchain: string,
  declaration: VersionDeclaration | null,
  override = '',
): ResolvedToolchain {
  const fallback = defaultRelease(toolchain);
  if (!fallback) throw new HammerError('USAGE', `unknown toolchain "${toolchain}"`);
  const asked: VersionDeclaration | null =
    override.trim() !== ''
      ? { file: OVERRIDE_SOURCE, text: override.trim(), constraint: overrideConstraint(toolchain, override.trim()) }
      : declaration;
  if (!asked) return { toolchain, release: fallback, source: 'default' };
  const source = override.trim() !== '' ? 'override' : 'declared';
  const declared = { file: asked.file, text: asked.text };
  const releases = availableReleases(toolchain);
  const fits = releases.filter((r) => satisfies(asked.constraint, r));
  const pinned = toolchain === 'node' ? exactNodePin(asked.constraint) : undefined;
  if (fits.length === 0 && pinned)
    return { toolchain, release: nodeRelease(pinned, false), source, declaration: declared };
  if (fits.length === 0) throw unavailable(toolchain, asked, releases);
  const chosen = fits.includes(fallback)
    ? fallback
    : (fits.find((r) => compareVersions(r.floor, fallback.floor) > 0) ?? fits.at(-1)!);
  return { toolchain, release: chosen, source, declaration: declared };
}

/** The toolchain and version in one phrase, e.g. "go 1.24 (go.mod: go 1.22)", "node 24.21.0 (default)". */
export function describeResolved(resolved: ResolvedToolchain): string {
  const why = resolved.declaration ? `${resolved.declaration.file}: ${resolved.declaration.text}` : 'default';
  return `${resolved.toolchain} ${resolved.release.version} (${why})`;
}

/** An override names a version the way its ecosystem does: a semver range for Node.js, a series otherwise. */
function overrideConstraint(toolchain: string, text: string): VersionConstraint {
  if (toolchain === 'node') {
    const range = text.replace(/^v(?=\d)/, '');
    return semver.validRange(range, { loose: true }) === null
      ? { kind: 'unavailable', reason: 'not a Node.js version' }
      : { kind: 'semver', range };
  }
  return /^\d+(\.\d+){0,2}$/.test(text)
    ? { kind: 'series', version: text }
    : { kind: 'unavailable', reason: 'not a version' };
}

/** An exact Node.js version (a full pin such as "22.3.0"), which the registry may have though the table does not. */
function exactNodePin(constraint: VersionConstraint): string | undefined {
  if (constraint.kind !== 'semver') return undefined;
  const exact = semver.valid(constraint.range.trim(), { loose: true });
  return exact !== null && semver.prerelease(exact) === null ? exact : undefined;
}

function unavailable(toolchain: string, asked: VersionDeclaration, releases: readonly ToolchainRelease[]): HammerError {
  const list = releases.map((r) => `${r.version} (${r.origin})`).join(', ');
  return new HammerError(
    'TOOLCHAIN_UNAVAILABLE',
    `${asked.file} asks for ${toolchain} ${asked.text} (${describeConstraint(asked.constraint)}), and no ${toolchain} hammer-box can build satisfies it; available: ${list}`,
    {
      hint:
        asked.file === OVERRIDE_SOURCE
          ? `set ${OVERRIDE_SOURCE} (or --toolchain-version) to one of: ${releases.map((r) => r.version).join(', ')}`
          : `to run with one of them anyway, set ${OVERRIDE_SOURCE} (or --toolchain-version), e.g. ${releases.find((r) => r.isDefault)?.version ?? releases[0]?.version ?? ''}; or bring your own image with --image`,
    },
  );
}
