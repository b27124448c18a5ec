// Build dist/ for the package. npm runs this as `prepare`: after `npm install` in a checkout, when it
// installs from a git URL (before packing the clone) and on `npm pack` / `npm publish`. A fresh
// clone without node_modules gets its build tools first, so `npm pack` works there too.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.env.npm_execpath;

/** Run a command in the package root; exit with its status when it fails. */
function step(command, args) {
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: localEnv() });
  if (r.status !== 0) {
    process.stderr.write(`hammer-box prepare: ${[command, ...args].join(' ')} failed\n`);
    process.exit(r.status ?? 1);
  }
}

/** The environment without npm's settings for a global install (`npm install -g .` runs this in the clone). */
function localEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (/^npm_config_(global|location|prefix)$/i.test(k)) delete env[k];
  return env;
}

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
if (!existsSync(tsc)) {
  // `npm pack` in a fresh clone: npm does not install dependencies first
  const [cmd, pre] = npm ? [process.execPath, [npm]] : ['npm', []];
  step(cmd, [...pre, 'ci', '--no-audit', '--no-fund', '--ignore-scripts', '--include=dev']);
}
// a clean dist: nothing left over from files that no longer exist goes into a package
rmSync(join(root, 'dist'), { recursive: true, force: true });
step(process.execPath, [tsc, '-p', 'tsconfig.json']);
chmodSync(join(root, 'dist', 'cli', 'main.js'), 0o755);
// the stamp `make build` compares with the sources (it compiles again only when one is newer)
writeFileSync(join(root, 'dist', '.built'), '');
