// The host canary every attack test plants: a file and an environment variable holding random
// values. After the attack the file must be untouched and the values must appear nowhere the run
// could have put them: inside the sandbox, in the prompts, in the run's files, on the terminal.
import { randomBytes } from 'node:crypto';
import { lstat, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../../helpers/fixture-repo.js';

/** A planted canary. */
export interface Canary {
  /** The file's random content. */
  fileValue: string;
  /** The environment variable's name and random value (set in this process's environment). */
  envName: string;
  envValue: string;
  /** The canary file on the host and its directory. */
  file: string;
  dir: string;
  /** True when the file still holds exactly what was planted (content, mode, mtime). */
  untouched(): Promise<boolean>;
  /** The places in `texts` (name → text) where either value appears. */
  hits(texts: Record<string, string | Buffer>): string[];
  /**
   * A shell snippet for inside the sandbox that prints CANARY_FOUND or CANARY_ABSENT. The values are
   * rebuilt from two halves at run time, so the command text itself never holds them.
   */
  probe(): string;
  /** Remove the file and the variable. */
  remove(): Promise<void>;
}

/** Plant a canary: a temp file with a random value and HB_CANARY_<hex> in process.env. */
export async function plantCanary(): Promise<Canary> {
  const dir = await tempDir('hb-canary-');
  const fileValue = `hbfile${randomBytes(12).toString('hex')}`;
  const envValue = `hbenv${randomBytes(12).toString('hex')}`;
  const envName = `HB_CANARY_${randomBytes(4).toString('hex').toUpperCase()}`;
  const file = join(dir, 'host-secret.txt');
  await writeFile(file, `${fileValue}\n`, { mode: 0o600 });
  const planted = await stat(file);
  process.env[envName] = envValue;
  const values = [fileValue, envValue];
  const split = (v: string): [string, string] => [v.slice(0, 9), v.slice(9)];
  return {
    fileValue,
    envName,
    envValue,
    file,
    dir,
    async untouched() {
      const now = await lstat(file).catch(() => null);
      if (!now || !now.isFile() || now.mode !== planted.mode || now.mtimeMs !== planted.mtimeMs) return false;
      return (await readFile(file, 'utf8')) === `${fileValue}\n`;
    },
    hits(texts) {
      const found: string[] = [];
      for (const [where, text] of Object.entries(texts)) {
        const buf = typeof text === 'string' ? Buffer.from(text) : text;
        for (const v of values)
          if (buf.includes(v)) found.push(`${where} holds ${v === fileValue ? 'the file canary' : 'the env canary'}`);
      }
      return found;
    },
    probe() {
      const [a, b] = split(fileValue);
      const [c, d] = split(envValue);
      // grep -r of the writable and configuration trees, every process's environment, and env(1)
      return (
        `f="$(printf %s '${a}')$(printf %s '${b}')"; e="$(printf %s '${c}')$(printf %s '${d}')"; ` +
        `if env | grep -qF -e "$f" -e "$e" || cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -qF -e "$f" -e "$e" || ` +
        `grep -rqsF -e "$f" -e "$e" /workspace /tmp /home /etc /run /var /opt /srv /root /usr/local 2>/dev/null; ` +
        `then echo "CANARY_""FOUND"; else echo "CANARY_""ABSENT"; fi`
      );
    },
    async remove() {
      delete process.env[envName];
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Every regular file under `dir` (not following symlinks), as path → content (capped per file). */
export async function filesUnder(dir: string, maxBytes = 64 * 1024 * 1024): Promise<Record<string, Buffer>> {
  const out: Record<string, Buffer> = {};
  const walk = async (d: string): Promise<void> => {
    for (const name of await readdir(d).catch(() => [] as string[])) {
      const p = join(d, name);
      const st = await lstat(p);
      if (st.isDirectory()) await walk(p);
      else if (st.isFile()) out[p] = st.size > maxBytes ? Buffer.from(`(over ${maxBytes} bytes)`) : await readFile(p);
    }
  };
  await walk(dir);
  return out;
}
