// The image builder: the base image, content-addressed toolchain and env images, detection,
// usage, listing and pruning.
export { bootstrapBase } from './base.js';
export type { BaseImage, BaseMethod, BootstrapOptions } from './base.js';
export { ensureToolchainImage, planToolchainImage } from './toolchain-image.js';
export type { ToolchainImage, ToolchainImageOptions, ToolchainImagePlan } from './toolchain-image.js';
export { listImages } from './list.js';
export type { ManagedImage } from './list.js';
export { getToolchain, toolchainNames } from './toolchains.js';
export type { Toolchain } from './toolchains.js';
export { BASE_TAG, BASE_PULL_REF, IMAGE_LABELS, MANAGED_BY } from './labels.js';
export { hashImageInputs } from './context-hash.js';
export { imagesDir, packageRoot } from './package-root.js';
export { CONTRACT_ITEMS, assertImageContract, checkImageContract, parseContractOutput } from './contract.js';
export type { ContractItem, ContractReport } from './contract.js';
export { detectToolchain, TOOLCHAIN_MARKERS } from './detect.js';
export type { Detection } from './detect.js';
export {
  defaultSetupCommand,
  isDependencyFile,
  localRequirementPaths,
  setupScript,
  ENV_ROOT,
  PYTHON_VENV,
} from './setup-plan.js';
export type { SetupScript } from './setup-plan.js';
export { envImageTag, hashEnvInputs } from './env-hash.js';
export type { DependencyFile, EnvInputs } from './env-hash.js';
export {
  ensureEnvImage,
  planEnvImage,
  setupEnvironment,
  ENV_LABELS,
  CA_VARIABLES,
  PROXY_VARIABLES,
} from './env-image.js';
export type { EnvImage, EnvImageRequest } from './env-image.js';
export { imageUsagePath, readImageUsage, recordImageUsage } from './usage.js';
export type { ImageUsage } from './usage.js';
export { planPrune } from './prune-plan.js';
export type { KeepReason, PruneImage, PrunePlan, PrunePolicy } from './prune-plan.js';
export { imagesInUse, pruneImages } from './prune.js';
export type { PruneResult } from './prune.js';
