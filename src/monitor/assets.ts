// The monitor's static files: its style sheet and live script (shipped in the package's monitor/
// folder) and diff2html's style sheet. A fixed list, read once: no name from a request is a path.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';

/** One static file: its bytes and content type. */
export interface Asset {
  body: Buffer;
  type: string;
}

/** Every asset by the name pages link it with; the live script is for the server only. */
export async function loadAssets(options: { live: boolean }): Promise<Map<string, Asset>> {
  const root = join(packageRoot(), 'monitor');
  const require = createRequire(import.meta.url);
  const files: [string, string, string][] = [
    ['monitor.css', join(root, 'monitor.css'), 'text/css; charset=utf-8'],
    ['diff2html.min.css', require.resolve('diff2html/bundles/css/diff2html.min.css'), 'text/css; charset=utf-8'],
  ];
  if (options.live) files.push(['live.js', join(root, 'live.js'), 'text/javascript; charset=utf-8']);
  const assets = new Map<string, Asset>();
  for (const [name, path, type] of files) assets.set(name, { body: await readFile(path), type });
  return assets;
}
