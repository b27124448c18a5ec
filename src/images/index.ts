// The image builder: the base image, content-addressed toolchain images, and listing them.
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
