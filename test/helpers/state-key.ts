// A fixed state key for tests that write states themselves and read them back through the API.
import { stateKeyFromSecret, STATE_KEY_ENV } from '../../src/state/state-key.js';

/** The secret (as HAMMER_STATE_KEY would give it). */
export const TEST_STATE_SECRET = 'hammer-box-tests-state-key-0123456789abcdef';
/** The key a RunStore in a test seals with. */
export const TEST_STATE_KEY = stateKeyFromSecret(TEST_STATE_SECRET, 'the test key');
/** An environment whose state key is TEST_STATE_KEY. */
export const TEST_KEY_ENV: NodeJS.ProcessEnv = { [STATE_KEY_ENV]: TEST_STATE_SECRET };
