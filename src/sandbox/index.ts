// The sandbox layer's public face: the contract, the Docker engine, and the pure helpers.
export type * from './types.js';
export {
  connectDocker,
  createDockerClient,
  describeAddress,
  describeEndpoint,
  engineAddress,
  findEngine,
  pingEngine,
  type EngineAddress,
} from './docker-client.js';
export { discoverEngine, type DiscoveryInputs, type EngineEndpoint } from './engine-discovery.js';
export { ENGINE_HINT, isEngineLost } from './docker-errors.js';
export { DockerSandboxEngine, type DockerSandboxEngineOptions } from './engine.js';
export {
  containerCreateOptions,
  volumeCreateOptions,
  tmpMountOptions,
  envList,
  WORKDIR,
  NO_NEW_PRIVILEGES,
} from './hardening.js';
export { verifyHardening, type HardeningExpectation } from './verify-hardening.js';
export { FrameDemuxer, type StreamName } from './demux.js';
export { OutputCapture, droppedMarker } from './capture.js';
export { DEFAULT_MAX_OUTPUT_BYTES } from './exec.js';
export { isDeadRun, pidAlive, type Liveness } from './gc.js';
export { parseEngineInfo } from './engine-info.js';
export { PODMAN_HINT, PODMAN_REASON, refusePodman } from './podman.js';
export { LABELS, MANAGED_BY, sandboxLabels, currentOwner, type Owner } from './labels.js';
export { KEEPER_USER, parseSandboxUser, type SandboxUser } from './user.js';
export { safeRelativePath, workspaceRelative } from './paths.js';
