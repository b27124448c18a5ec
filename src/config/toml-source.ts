// Reading one TOML config file into a plain object, with the line of every key for error messages.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { parse, TomlError } from 'smol-toml';
import { HammerError } from '../errors.js';
import { findForbiddenKey } from './safe-keys.js';

/** The largest config file read (bigger ones are refused without being read). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** One layer of configuration and where it came from. */
export interface ConfigLayer {
  /** Human name of the source: a file path, "environment" or "command line". */
  source: string;
  values: Record<string, unknown>;
  /** Dotted key path -> line number in the source file (files only). */
  lines: Map<string, number>;
}

/** Index the line of each `key =` under its `[table]`, so errors can say file, line and key. */
export function indexKeyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let table = '';
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    const header = /^\[\s*([^[\]]+?)\s*\]/.exec(line);
    if (header && !line.startsWith('[[')) {
      table = unquote(header[1] ?? '');
      if (!lines.has(table)) lines.set(table, i + 1);
      return;
    }
    const kv = /^([A-Za-z0-9_\-."' ]+?)\s*=/.exec(line);
    if (kv) {
      const key = unquote(kv[1] ?? '');
      const path = table ? `${table}.${key}` : key;
      if (!lines.has(path)) lines.set(path, i + 1);
    }
  });
  return lines;
}

function unquote(dotted: string): string {
  return dotted
    .split('.')
    .map((p) => p.trim().replace(/^["'](.*)["']$/, '$1'))
    .join('.');
}

/**
 * Parse TOML text; a syntax error, or a key such as `__proto__` that names a prototype, becomes
 * CONFIG_INVALID naming the file and line.
 */
export function parseTomlLayer(text: string, source: string): ConfigLayer {
  let values: Record<string, unknown>;
  try {
    values = parse(text);
  } catch (err) {
    if (err instanceof TomlError) {
      const first = err.message.split('\n')[0] ?? err.message;
      throw new HammerError('CONFIG_INVALID', `${source}:${err.line}:${err.column}: ${first}`, {
        hint: 'fix the TOML syntax at that line',
        cause: err,
      });
    }
    throw err;
  }
  const lines = indexKeyLines(text);
  const forbidden = findForbiddenKey(values);
  if (forbidden !== undefined) {
    const line = lines.get(forbidden) ?? lines.get(forbidden.slice(0, forbidden.lastIndexOf('.')));
    throw new HammerError(
      'CONFIG_INVALID',
      `${source}${line ? `:${line}` : ''}: ${forbidden}: a key may not be named __proto__, constructor or prototype`,
      { hint: `remove that key from ${source}` },
    );
  }
  return { source, values, lines };
}

/**
 * Read and parse a TOML file: a regular file of at most MAX_CONFIG_BYTES, read through one open
 * descriptor (so the size checked is the size read). `optional` files that do not exist give
 * undefined; `noFollow` refuses a symlink as the file itself (a repository's config).
 */
export async function readTomlLayer(
  path: string,
  options: { optional?: boolean; noFollow?: boolean; hint?: string } = {},
): Promise<ConfigLayer | undefined> {
  const hint = options.hint ?? 'check the path given to --config';
  let text: string;
  try {
    text = await readCappedText(path, options.noFollow === true);
  } catch (err) {
    if (err instanceof HammerError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.optional) return undefined;
    const why =
      code === 'ELOOP' ? 'it is a symlink, and a repository config is never read through one' : (err as Error).message;
    throw new HammerError('CONFIG_INVALID', `cannot read config file ${path}: ${why}`, { hint, cause: err });
  }
  return parseTomlLayer(text, path);
}

async function readCappedText(path: string, noFollow: boolean): Promise<string> {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused as not a regular file)
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (noFollow ? constants.O_NOFOLLOW : 0);
  const fh = await open(path, flags);
  try {
    const st = await fh.stat();
    if (!st.isFile())
      throw new HammerError('CONFIG_INVALID', `cannot read config file ${path}: not a regular file`, {
        hint: 'a config file must be a plain TOML file',
      });
    if (st.size > MAX_CONFIG_BYTES)
      throw new HammerError(
        'CONFIG_INVALID',
        `cannot read config file ${path}: ${st.size} bytes, over the ${MAX_CONFIG_BYTES}-byte limit for a config file`,
        { hint: 'a config file holds a few settings; this one is not a config file' },
      );
    // read at most one byte past the cap: a file that grows after the stat is still refused
    const buf = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, null);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n > MAX_CONFIG_BYTES)
        throw new HammerError(
          'CONFIG_INVALID',
          `cannot read config file ${path}: it grew past ${MAX_CONFIG_BYTES} bytes`,
        );
    }
    return buf.subarray(0, n).toString('utf8');
  } finally {
    await fh.close();
  }
}
