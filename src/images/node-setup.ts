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
