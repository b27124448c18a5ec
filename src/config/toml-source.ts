// Reading one TOML config file into a plain object, with the line of every key for error messages.
import { readFile } from 'node:fs/promises';
import { parse, TomlError } from 'smol-toml';
import { HammerError } from '../errors.js';

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

/** Parse TOML text; a syntax error becomes CONFIG_INVALID naming the file and line. */
export function parseTomlLayer(text: string, source: string): ConfigLayer {
  try {
    const values = parse(text) as Record<string, unknown>;
    return { source, values, lines: indexKeyLines(text) };
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
}

/** Read and parse a TOML file; `optional` files that do not exist give undefined. */
export async function readTomlLayer(
  path: string,
  options: { optional?: boolean } = {},
): Promise<ConfigLayer | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && options.optional) return undefined;
    throw new HammerError('CONFIG_INVALID', `cannot read config file ${path}: ${(err as Error).message}`, {
      hint: 'check the path given to --config',
      cause: err,
    });
  }
  return parseTomlLayer(text, path);
}
