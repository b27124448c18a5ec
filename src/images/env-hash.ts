// The content address of an env image: the toolchain image it starts from, exactly what setup
// runs, and the dependency files it reads. Nothing else (not the proxy, not the CA bundle, not
// the rest of the repository), so an unchanged repository always finds its env image again.
import { createHash } from 'node:crypto';
import { TAG_HASH_LENGTH } from './context-hash.js';

/** One input file of the setup: a repository path and the git object id of its content. */
export interface DependencyFile {
  path: string;
  /** The git blob (or, for a local package directory, tree) id: a hash of the content. */
  oid: string;
}

/** Everything that determines an env image. */
export interface EnvInputs {
  toolchainImageId: string;
  /** The setup command as configured or defaulted. */
  command: string;
  /** The script wrapped around it (venv, moves, cleanup), so a changed wrapper gives a new tag. */
  script: string;
  files: readonly DependencyFile[];
}

/** The 12-hex-digit hash naming an env image: stable across file order. */
export function hashEnvInputs(inputs: EnvInputs): string {
  const h = createHash('sha256');
  const field = (value: string): void => {
    const buf = Buffer.from(value, 'utf8');
    h.update(`${buf.length}:`);
    h.update(buf);
  };
  field('hammer-box-env/v1');
  field(inputs.toolchainImageId);
  field(inputs.command);
  field(inputs.script);
  const files = [...inputs.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  field(String(files.length));
  for (const f of files) {
    field(f.path);
    field(f.oid);
  }
  return h.digest('hex').slice(0, TAG_HASH_LENGTH);
}

/** The tag of an env image: hammer-box/<toolchain>-env:<hash>. */
export function envImageTag(toolchain: string, hash: string): string {
  return `hammer-box/${toolchain}-env:${hash}`;
}
