// Labels on every image hammer-box builds; `images list` and later pruning select by them.

/** Label keys hammer-box puts on its images. */
export const IMAGE_LABELS = {
  managedBy: 'hammer-box.managed-by',
  toolchain: 'hammer-box.toolchain',
  contextHash: 'hammer-box.context-hash',
  /** The toolchain's version in a toolchain image, e.g. "1.24" or "22.23.3". */
  toolchainVersion: 'hammer-box.toolchain-version',
} as const;

/** The value of the managed-by label. */
export const MANAGED_BY = 'hammer-box';

/** The tag of the base image every toolchain image is built FROM. */
export const BASE_TAG = 'hammer-box/base:trixie';

/** The registry image pulled (and re-tagged as BASE_TAG) when a registry is reachable. */
export const BASE_PULL_REF = 'debian:trixie-slim';

/** The repository part of a toolchain image tag: hammer-box/<toolchain>. */
export function toolchainRepo(toolchain: string): string {
  return `hammer-box/${toolchain}`;
}
