// What gc prints, and JSON output that a terminal cannot misread.
import { describe, expect, it } from 'vitest';
import { renderGcReport } from '../../../src/cli/commands/gc.js';
import { terminalJson } from '../../../src/cli/terminal-json.js';

describe('gc output', () => {
  it('names every removed container, volume and network', () => {
    expect(
      renderGcReport({
        containers: ['hammer-box-run-1-ab12'],
        volumes: ['hammer-box-run-1-ab12-ws', 'orphan-ws'],
        networks: ['hammer-box-setup-0a1b2c3d4e5f'],
      }),
    ).toEqual([
      'removed container hammer-box-run-1-ab12',
      'removed volume hammer-box-run-1-ab12-ws',
      'removed volume orphan-ws',
      'removed network hammer-box-setup-0a1b2c3d4e5f',
    ]);
  });

  it('says so when there is nothing to remove', () => {
    expect(renderGcReport({ containers: [], volumes: [], networks: [] })).toEqual(['nothing to remove']);
  });
});

describe('terminalJson', () => {
  it('escapes what a terminal would act on or hide, and parses back to the same value', () => {
    const value = { out: 'a\u001b[2Jb\u009b31mc\u007fd\u202ee\u200bf\u2028g', n: 1, list: ['plain ü'] };
    const text = terminalJson(value);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029]/);
    expect(text).toContain('\\u009b');
    expect(text).toContain('\\u202e');
    expect(text).toContain('plain ü');
    expect(JSON.parse(text)).toEqual(value);
  });
});
