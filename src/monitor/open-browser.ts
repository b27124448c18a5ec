// `hammer-box monitor --open`: the user's browser on the monitor's URL. The URL carries the token,
// so it is not put on a command line other users can read: the browser opens a file, readable by
// the user alone, that sends it on to the URL (as Jupyter does).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeHtml } from './html.js';

/** The program that opens a file in the user's browser on this platform, or null. */
export function opener(platform: NodeJS.Platform = process.platform): string | null {
  if (platform === 'darwin') return 'open';
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') return 'xdg-open';
  return null;
}

/** Open `url` in the browser; resolves to a cleanup that removes the redirect file, or throws saying why not. */
export async function openInBrowser(url: string): Promise<() => Promise<void>> {
  const program = opener();
  if (program === null) throw new Error(`no known way to open a browser on ${process.platform}`);
  const dir = await mkdtemp(join(tmpdir(), 'hammer-box-monitor-'));
  const file = join(dir, 'open.html');
  await writeFile(
    file,
    `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=${escapeHtml(url)}"><title>hammer-box monitor</title><p><a href="${escapeHtml(url)}">hammer-box monitor</a></p>\n`,
    { mode: 0o600 },
  );
  await new Promise<void>((resolve, reject) => {
    const child = spawn(program, [file], { stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
  return () => rm(dir, { recursive: true, force: true });
}
