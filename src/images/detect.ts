// Which toolchain a repository needs, decided from the names of the files at its root (the base
// commit's tree, never the working tree). Pure: the caller lists the tree.
import { HammerError } from '../errors.js';

/** The files that mark a toolchain, at the repository root. */
export const TOOLCHAIN_MARKERS: Readonly<Record<string, (name: string) => boolean>> = {
  python: (n) => n === 'pyproject.toml' || n === 'setup.py' || n === 'setup.cfg' || /^requirements[^/]*\.txt$/.test(n),
  node: (n) => n === 'package.json',
  go: (n) => n === 'go.mod',
  rust: (n) => n === 'Cargo.toml',
};

/** Source file extensions, consulted only when no marker file is present (a bare pytest repo). */
const SOURCE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  python: ['.py'],
  node: ['.js', '.mjs', '.cjs', '.ts'],
  go: ['.go'],
  rust: ['.rs'],
};

/** What detection found: the toolchain and the files that decided it. */
export interface Detection {
  toolchain: string;
  /** The marker files (or, without any, the source files) that chose it. */
  evidence: string[];
  /** 'marker' when a manifest decided; 'sources' when only file extensions did. */
  by: 'marker' | 'sources';
}

/**
 * Detect the toolchain from the repository's root file names (and, without any marker file, from
 * the extensions of all its paths). USAGE when several toolchains match or none does, naming the
 * files and the overrides.
 */
export function detectToolchain(rootFiles: readonly string[], allPaths: readonly string[] = rootFiles): Detection {
  const byMarker = matchAll(rootFiles, (name, tc) => TOOLCHAIN_MARKERS[tc]!(name));
  if (byMarker.size === 1) {
    const [toolchain, evidence] = [...byMarker][0]!;
    return { toolchain, evidence, by: 'marker' };
  }
  if (byMarker.size > 1) {
    const found = [...byMarker].map(([tc, files]) => `${tc} (${files.join(', ')})`).join('; ');
    throw new HammerError('USAGE', `the repository matches several toolchains: ${found}`, { hint: OVERRIDE_HINT });
  }
  const bySource = matchAll(allPaths, (p, tc) => SOURCE_EXTENSIONS[tc]!.some((ext) => p.endsWith(ext)));
  if (bySource.size === 1) {
    const [toolchain, evidence] = [...bySource][0]!;
    return { toolchain, evidence: evidence.slice(0, 5), by: 'sources' };
  }
  const markers =
    'pyproject.toml, setup.py, setup.cfg or requirements*.txt (python), package.json (node), go.mod (go), Cargo.toml (rust)';
  if (bySource.size > 1) {
    const found = [...bySource].map(([tc, files]) => `${tc} (${files.slice(0, 3).join(', ')})`).join('; ');
    throw new HammerError(
      'USAGE',
      `cannot tell the repository's toolchain: no ${markers} at its root, and its sources are mixed: ${found}`,
      { hint: OVERRIDE_HINT },
    );
  }
  throw new HammerError('USAGE', `cannot tell the repository's toolchain: none of ${markers} is at its root`, {
    hint: OVERRIDE_HINT,
  });
}

const OVERRIDE_HINT =
  'name it with --toolchain <python|node|go|rust> (or [sandbox] toolchain in a config file); a custom image with --image also needs [tools] test_command / --test-command';

function matchAll(paths: readonly string[], test: (path: string, toolchain: string) => boolean): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const tc of Object.keys(TOOLCHAIN_MARKERS).sort()) {
    const files = paths.filter((p) => test(p, tc)).sort();
    if (files.length > 0) found.set(tc, files);
  }
  return found;
}
