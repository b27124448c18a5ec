// Command-line flags as the highest config layer.
import { describe, expect, it } from 'vitest';
import { flagsToConfig } from '../../../src/cli/config-flags.js';

describe('flagsToConfig', () => {
  it('sets the backend, its context and trust from --engine, --kube-context and --trusted-repo', () => {
    expect(flagsToConfig({ engine: 'kubernetes', kubeContext: 'kind-hb', trustedRepo: true })).toEqual({
      sandbox: { engine: 'kubernetes', trusted_repo: true },
      kubernetes: { context: 'kind-hb' },
    });
  });

  it('leaves out flags that were not given', () => {
    expect(flagsToConfig({})).toEqual({});
    expect(flagsToConfig({ model: 'm', engine: undefined })).toEqual({ model: { name: 'm' } });
  });
});
