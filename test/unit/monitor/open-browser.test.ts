// --open: the browser is handed a file only the user can read, never the URL (which holds the token).
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openInBrowser, opener } from '../../../src/monitor/open-browser.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('opener', () => {
  it('is open on macOS, xdg-open on Linux and the BSDs, and nothing elsewhere', () => {
    expect(opener('darwin')).toBe('open');
    expect(opener('linux')).toBe('xdg-open');
    expect(opener('freebsd')).toBe('xdg-open');
    expect(opener('win32')).toBeNull();
  });
});

describe.runIf(process.platform === 'linux')('openInBrowser', () => {
  it('starts the opener on a 0600 file that sends the browser to the URL, the token off its command line', async () => {
    const bin = await mkdtemp(join(tmpdir(), 'hb-opener-'));
    const seen = join(bin, 'seen');
    await writeFile(
      join(bin, 'xdg-open'),
      `#!/bin/sh\nprintf '%s' "$*" > '${seen}.argv'\ncat "$1" > '${seen}.tmp' && mv '${seen}.tmp' '${seen}'\n`,
    );
    await chmod(join(bin, 'xdg-open'), 0o755);
    vi.stubEnv('PATH', `${bin}:${process.env['PATH'] ?? ''}`);
    const url = 'http://127.0.0.1:4321/?token=s3cret-token';
    const cleanup = await openInBrowser(url);
    let page = '';
    for (let i = 0; i < 200 && page === ''; i++) {
      page = await readFile(seen, 'utf8').catch(() => '');
      if (page === '') await new Promise((r) => setTimeout(r, 25));
    }
    expect(page).toContain('<meta http-equiv="refresh" content="0; url=http://127.0.0.1:4321/?token=s3cret-token">');
    const argv = await readFile(`${seen}.argv`, 'utf8');
    expect(argv).not.toContain('s3cret-token');
    expect((await stat(argv)).mode & 0o777).toBe(0o600);
    await cleanup();
    await expect(stat(argv)).rejects.toThrow();
    await rm(bin, { recursive: true, force: true });
  });
});
