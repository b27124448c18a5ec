import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_PROBE, parseContractOutput } from '../../../src/images/contract.js';

describe('parseContractOutput', () => {
  it('reads the missing items from the last probe line', () => {
    expect(parseContractOutput('noise\nHAMMER_CONTRACT missing=\n')).toEqual([]);
    expect(parseContractOutput('\nHAMMER_CONTRACT missing=git,workspace\n')).toEqual(['git', 'workspace']);
    expect(parseContractOutput('HAMMER_CONTRACT missing=git\nHAMMER_CONTRACT missing=tar\n')).toEqual(['tar']);
  });

  it('refuses unknown tokens and a missing line', () => {
    expect(parseContractOutput('HAMMER_CONTRACT missing=git,$(reboot)\n')).toBeUndefined();
    expect(parseContractOutput('sh: not found\n')).toBeUndefined();
  });

  it('the probe runs under /bin/sh and reports the host as it is', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hb-probe-'));
    try {
      const r = spawnSync('/bin/sh', ['-c', CONTRACT_PROBE], { encoding: 'utf8', cwd: dir });
      const missing = parseContractOutput(r.stdout);
      expect(missing).toBeDefined();
      // The host has git, tar and coreutils; whether /workspace exists here does not matter.
      expect(missing).not.toContain('git');
      expect(missing).not.toContain('tar');
      expect(missing).not.toContain('coreutils');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
