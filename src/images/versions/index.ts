// Toolchain versions: what a project declares, what can be built, and which release it gets.
export { availableReleases, defaultRelease, nodeRelease } from './catalog.js';
export type { ToolchainRelease } from './catalog.js';
export { compareVersions, describeConstraint, satisfies } from './constraint.js';
export type { VersionConstraint } from './constraint.js';
export { readVersionDeclaration, VERSION_FILES } from './declarations.js';
export type { VersionDeclaration } from './declarations.js';
export { describeResolved, OVERRIDE_SOURCE, resolveToolchainVersion } from './resolve.js';
export type { ResolvedToolchain } from './resolve.js';
