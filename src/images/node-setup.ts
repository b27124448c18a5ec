// The node part of a setup script: the package manager installed from the registry first, and
// node_modules carried where iterations find it.
import type { CarriedDir } from './env-carry.js';
import { packageManagerSetupLines, PM_BIN, PM_ROOT, type NodePackageManager } from './node-package-manager.js';

/** What the node setup depends on. */
export interface NodeSetupOptions {
  /** The repository's package manager (default: the image's npm). */
  packageManager?: NodePackageManager;
  /** The registry pnpm and yarn come from (default: npm's own). */
  npmRegistry?: string;
  /** Where the project is (default /workspace): its node_modules is carried. */
  workdir?: string;
}

/** The node pieces of a setup script (see SetupScript): `install` fetches the package manager, `prelude` puts it on PATH. */
export function nodeSetup(options: NodeSetupOptions): {
  install: string[];
  prelude: string[];
  env: Record<string, string>;
  carried: CarriedDir[];
  changes: (imagePath: string) => string[];
} {
  const pm = options.packageManager;
  const install = pm ? packageManagerSetupLines(pm, options.npmRegistry ?? 'https://registry.npmjs.org/') : [];
  const prelude = [`PATH=${PM_BIN}:$PATH`, 'export PATH'];
  const env: Record<string, string> = {
    NPM_CONFIG_CACHE: '/tmp/.npm',
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    NPM_CONFIG_FUND: 'false',
    NPM_CONFIG_AUDIT: 'false',
  };
  if (pm?.name === 'pnpm') {
    // one flat node_modules, as npm and yarn make: every workspace member's dependencies land in
    // the one directory the env image carries, where Node finds them from any member (and a
    // member's vite config resolves its dev dependencies); pnpm reads its settings from both
    // prefixes. In the script, so the env image's key changes with it
    prelude.push(
      'npm_config_node_linker=hoisted',
      'pnpm_config_node_linker=hoisted',
      'export npm_config_node_linker pnpm_config_node_linker',
    );
  }
  if (pm?.flavour === 'berry') {
    // a node_modules tree, not Plug'n'Play: its .pnp.cjs would live in /workspace, which the runner cleans
    Object.assign(env, {
      YARN_NODE_LINKER: 'node-modules',
      YARN_ENABLE_TELEMETRY: '0',
      YARN_ENABLE_GLOBAL_CACHE: 'false',
    });
  }
  // node_modules cannot stay in /workspace (the runner's git clean would remove it): the env image
  // has it at /node_modules, which Node finds by walking up from /workspace; its .bin is on PATH
  const carried: CarriedDir[] = [
    {
      from: `${options.workdir ?? '/workspace'}/node_modules`,
      to: '/node_modules',
      significant: (rel) => rel !== '.package-lock.json',
    },
  ];
  // an installed pnpm or yarn is something the test command needs, even with no dependencies
  if (pm?.install) carried.push({ from: PM_ROOT, to: PM_ROOT, significant: () => true });
  return {
    install,
    prelude,
    env,
    carried,
    changes: (imagePath) => [`ENV PATH=${PM_BIN}:/node_modules/.bin:${imagePath}`],
  };
}

/** The line setup prints when it installed from a lockfile its package manager refused (SetupLog reads it). */
export const DRIFT_PREFIX = 'hammer-box: drift: ';

/**
 * Shell lines for `npm ci` from `lockfile`: when npm refuses the lockfile as out of sync with
 * package.json (a lockfile another npm wrote, say), install from it with `npm install`, as the
 * user's own npm would, and say so in one drift line naming npm's reasons; any other failure
 * fails setup with npm's own output.
 */
export function npmCleanInstallLines(lockfile: string): string[] {
  const log = '/tmp/hammer-npm-ci.log';
  const status = '/tmp/hammer-npm-ci.status';
  return [
    // under `sh -e` a failing command in the group would end it before its status is written
    `{ hb_s=0; npm ci 2>&1 || hb_s=$?; echo "$hb_s" > ${status}; } | tee ${log}`,
    `hb_status=$(cat ${status})`,
    'if [ "$hb_status" != 0 ]; then',
    // npm's EUSAGE for a lockfile that does not match package.json, from npm 7 on
    `  if grep -q 'are in sync' ${log}; then`,
    String.raw`    hb_why=$(sed -n -E 's/^npm (error|ERR!) ((Missing|Invalid): .*)$/\2/p' ${log} | head -n 3 | tr -d '\r' | tr '\n' '|' | sed -e 's/|$//' -e 's/|/; /g' | cut -c 1-400)`,
    `    echo "hammer-box: npm ci refused ${lockfile} as out of sync with package.json; installing from it with npm install"`,
    '    npm install',
    `    echo "${DRIFT_PREFIX}npm ci refused ${lockfile} as out of sync with package.json\${hb_why:+ ($hb_why)}; installed with npm install, which resolved what the lockfile lacks"`,
    '  else',
    '    exit "$hb_status"',
    '  fi',
    'fi',
  ];
}
