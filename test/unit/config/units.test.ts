import { describe, expect, it } from 'vitest';
import { parseSize } from '../../../src/config/units.js';

describe('parseSize', () => {
  it('reads bytes and units', () => {
    expect(parseSize(1024)).toBe(1024);
    expect(parseSize('512k')).toBe(512 * 1024);
    expect(parseSize('64m')).toBe(64 * 1024 ** 2);
    expect(parseSize('2G')).toBe(2 * 1024 ** 3);
    expect(parseSize('1.5GiB')).toBe(Math.floor(1.5 * 1024 ** 3));
    expect(parseSize('0')).toBe(0);
  });
  it('refuses what is not a size', () => {
    expect(parseSize('lots')).toBeUndefined();
    expect(parseSize(-1)).toBeUndefined();
    expect(parseSize(1.5)).toBeUndefined();
    expect(parseSize('5x')).toBeUndefined();
  });
});
