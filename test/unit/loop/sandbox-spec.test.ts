// The sandbox's environment: an allowlist, with the time zone and Python's hash seed pinned so runs
// of one task do not differ by where they ran; [sandbox] env goes over it.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/resolve.js';
import { sandboxSpec } from '../../../src/loop/sandbox-spec.js';

describe('sandboxSpec', () => {
  it('pins TZ and PYTHONHASHSEED, and takes nothing from the host', async () => {
    const { config } = await resolveConfig({ env: { TZ: 'Europe/Paris', PYTHONHASHSEED: 'random' } });
    const env = sandboxSpec(config, 'r', 'img').env;
    expect(env).toMatchObject({ TZ: 'UTC', PYTHONHASHSEED: '0', LANG: 'C.UTF-8', HOME: '/tmp' });
  });

  it('lets [sandbox] env set them otherwise', async () => {
    const { config } = await resolveConfig({ env: {}, flags: { sandbox: { env: { TZ: 'Asia/Tokyo', EXTRA: '1' } } } });
    expect(sandboxSpec(config, 'r', 'img').env).toMatchObject({ TZ: 'Asia/Tokyo', PYTHONHASHSEED: '0', EXTRA: '1' });
  });
});
