import { describe, expect, it } from 'vitest';
import { needsUndiciRedirect } from '../../../src/api/kube-load.js';

describe('needsUndiciRedirect', () => {
  it('is true on a Node that cannot run undici 8 (before 22.19), false from 22.19 on', () => {
    expect(needsUndiciRedirect('20.18.1')).toBe(true);
    expect(needsUndiciRedirect('20.20.2')).toBe(true);
    expect(needsUndiciRedirect('22.18.0')).toBe(true);
    expect(needsUndiciRedirect('22.19.0')).toBe(false);
    expect(needsUndiciRedirect('23.0.0')).toBe(false);
    expect(needsUndiciRedirect('24.21.0')).toBe(false);
  });
});
