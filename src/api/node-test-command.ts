// The test command of a Node.js project, read from its package.json files at the base commit: a
// workspace whose root has no test script runs the member the directive points into (or every
// member's tests), and a test script that is a chain of parts runs whole (see script-chain.ts).
import type { NodePackageManager } from '../images/node-package-manager.js';
import { memberDirs, workspacePatterns, workspaceTestCommand, MAX_MEMBERS } from '../images/node-workspace.js';
import { wholeSuite } from '../images/script-chain.js';
import type { ReadFiles } from '../images/setup-inputs.js';

/** The test command decided, and what the environment line says about it. */
export interface NodeTestCommand {
  command: string;
  notes: string[];
}

/**
 * The project's test command (run in its directory), or null when its package manager's own
 * `<pm> test` stands. `names` are the project directory's files, `inDir` every path under it
 * (relative to it), `prefix` its directory with a slash ('' at the root).
 */
export async function nodeTestCommand(o: {
  read: ReadFiles;
  names: readonly string[];
  inDir: readonly string[];
  prefix: string;
  pm: NodePackageManager;
  directive: string;
  rootPackageJson: string | undefined;
}): Promise<NodeTestCommand | null> {
  const { read, prefix, pm } = o;
  const yamlName = o.names.includes('pnpm-workspace.yaml') ? `${prefix}pnpm-workspace.yaml` : null;
  const yaml = yamlName === null ? undefined : (await read([yamlName])).get(yamlName);
  const patterns = workspacePatterns(o.rootPackageJson, yaml);
  const dirs = patterns.length === 0 ? [] : memberDirs(patterns, o.inDir).slice(0, MAX_MEMBERS);
  const members =
    dirs.length === 0 ? new Map<string, string>() : await read(dirs.map((d) => `${prefix}${d}/package.json`));
  const memberPackageJson = new Map([...members].map(([p, text]) => [p.slice(prefix.length), text]));
  const ws =
    patterns.length === 0
      ? null
      : workspaceTestCommand(
          { rootPackageJson: o.rootPackageJson, pnpmWorkspaceYaml: yaml, paths: o.inDir, memberPackageJson },
          pm,
          o.directive,
        );
  const notes = ws ? [ws.why] : [];
  // the package whose test script runs: the member chosen, or the root when no workspace form replaced it
  const pkgText =
    ws === null
      ? o.rootPackageJson
      : ws.member === null
        ? undefined
        : memberPackageJson.get(`${ws.member}/package.json`);
  const scripts = scriptsOf(pkgText);
  const whole = scripts && typeof scripts['test'] === 'string' ? wholeSuite(scripts['test'], scripts) : null;
  if (whole !== null) {
    const cd = ws?.member ? `cd ${ws.member} && ` : '';
    return { command: `${cd}${whole.command}`, notes: [...notes, whole.how] };
  }
  return ws === null ? null : { command: ws.command, notes };
}

function scriptsOf(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  try {
    const pkg: unknown = JSON.parse(text);
    const scripts = typeof pkg === 'object' && pkg !== null ? (pkg as Record<string, unknown>)['scripts'] : null;
    return typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
