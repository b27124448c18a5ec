import { describe, expect, it } from 'vitest';
import { renderTestLog } from '../../../src/test-output/test-log.js';

describe('renderTestLog', () => {
  it('writes the command, the result and both streams, sanitised', () => {
    const log = renderTestLog('pytest -q', {
      exitCode: 1,
      stdout: { text: '\u001b[31mF\u001b[0m\n1 failed', totalBytes: 100, droppedBytes: 0 },
      stderr: { text: 'x', totalBytes: 5_000_000, droppedBytes: 4_000_000 },
      durationMs: 1500,
      timedOut: false,
    });
    expect(log).toBe(
      '$ pytest -q\n# exit 1 after 1500 ms\n----- stdout (100 bytes) -----\nF\n1 failed\n----- stderr (5000000 bytes, 4000000 dropped from the middle) -----\nx\n',
    );
  });
  it('says when the run timed out', () => {
    const log = renderTestLog('t', {
      exitCode: 137,
      stdout: { text: '', totalBytes: 0, droppedBytes: 0 },
      stderr: { text: '', totalBytes: 0, droppedBytes: 0 },
      durationMs: 10,
      timedOut: true,
    });
    expect(log).toContain('# timed out after 10 ms');
  });
});
