// The run state: schema, atomic store, artifact names, run ids.
export * from './run-state.js';
export * from './run-id.js';
export * from './artifact-names.js';
export * from './transitions.js';
export { writeFileAtomic, fsyncDir, TEMP_SUFFIX } from './atomic-write.js';
export { RunStore, parseState, type RunStoreOptions, type RunList, type SkippedStateFile } from './store.js';
export {
  loadStateKey,
  stateKeyFromSecret,
  stateKeyPath,
  userStateDir,
  STATE_KEY_ENV,
  type StateKey,
} from './state-key.js';
export { sealState, openSealedState, unsealedBody } from './state-mac.js';
export { stateDirIn, trackedStateRefusal } from './state-dir.js';
