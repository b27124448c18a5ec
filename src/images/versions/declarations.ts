// The toolchain version a project declares, read from the files that declare it (at the root of
// the base commit's tree). Pure: the caller reads the files. The first file of a toolchain's list
// that declares a version decides; a declaration that cannot be read is reported, never guessed.
import { satisfies as pep440Satisfies, validRange as pep440ValidRange } from '@renovatebot/pep440';
import semver from 'semver';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { compareVersions, type VersionConstraint } from './constraint.js';
import { NODE_LTS_NAMES } from './node-releases.js';

/** A declared version: the file, the words as written (shortened, printable), and what they ask for. */
export interface VersionDeclaration {
  file: string;
  text: string;
  constraint: VersionConstraint;
}

/** The files each toolchain's version is read from, in order of precedence. */
export const VERSION_FILES: Readonly<Record<string, readonly string[]>> = {
  go: ['go.mod'],
  node: ['.nvmrc', '.node-version', 'package.json'],
  python: ['pyproject.toml', '.python-version'],
  rust: ['rust-toolchain.toml', 'rust-toolchain', 'Cargo.toml'],
};

type Reader = (content: string) => Omit<VersionDeclaration, 'file'> | null;

/** The declaration of `toolchain`'s version among `files` (root path → content), or null when none declares one. */
export function readVersionDeclaration(
  toolchain: string,
  files: ReadonlyMap<string, string>,
): VersionDeclaration | null {
  for (const file of VERSION_FILES[toolchain] ?? []) {
    const content = files.get(file);
    if (content === undefined) continue;
    const found = READERS[file]!(content);
    if (found) return { file, text: printable(found.text), constraint: found.constraint };
  }
  return null;
}

const READERS: Readonly<Record<string, Reader>> = {
  'go.mod': readGoMod,
  '.nvmrc': readNodePin,
  '.node-version': readNodePin,
  'package.json': readEnginesNode,
  'pyproject.toml': readRequiresPython,
  '.python-version': readPythonPin,
  'rust-toolchain.toml': readRustToolchain,
  'rust-toolchain': readRustToolchain,
  'Cargo.toml': readRustVersion,
};

/** go.mod: the go line is the least Go that builds the module, and a toolchain line may ask more. */
function readGoMod(content: string): Omit<VersionDeclaration, 'file'> | null {
  let go: string | undefined;
  let toolchain: string | undefined;
  for (const raw of content.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    const g = /^go\s+(\d+(?:\.\d+){1,2}(?:(?:rc|beta)\d+)?)$/.exec(line);
    if (g) go = g[1];
    const t = /^toolchain\s+go(\d+(?:\.\d+){1,2}(?:(?:rc|beta)\d+)?)(?:-\S+)?$/.exec(line);
    if (t) toolchain = t[1];
  }
  if (go === undefined && toolchain === undefined) return null;
  const text = [go && `go ${go}`, toolchain && `toolchain go${toolchain}`].filter(Boolean).join(', ');
  const least = [go, toolchain].filter((v): v is string => v !== undefined).sort((a, b) => compareVersions(b, a))[0]!;
  return { text, constraint: { kind: 'at-least', version: least } };
}

/** .nvmrc / .node-version: a version (exact or partial), an alias, or an LTS name, as nvm reads them. */
function readNodePin(content: string): Omit<VersionDeclaration, 'file'> | null {
  const text = firstLine(content);
  if (text === '') return null;
  const word = text.replace(/^v(?=\d)/, '');
  if (['node', 'stable', 'latest', 'current'].includes(word)) return { text, constraint: { kind: 'any' } };
  const lts = /^lts\/(.+)$/.exec(word);
  if (lts) {
    const name = lts[1]!.toLowerCase();
    const major = name === '*' ? Math.max(...Object.values(NODE_LTS_NAMES)) : NODE_LTS_NAMES[name];
    if (major === undefined) return { text, constraint: { kind: 'unavailable', reason: `an unknown LTS name` } };
    return { text, constraint: { kind: 'semver', range: String(major) } };
  }
  if (semver.validRange(word, { loose: true }) === null)
    return { text, constraint: { kind: 'unavailable', reason: 'not a Node.js version' } };
  return { text, constraint: { kind: 'semver', range: word } };
}

const packageJsonSchema = z.looseObject({ engines: z.looseObject({ node: z.string().optional() }).optional() });

/** package.json engines.node: an npm semver range. */
function readEnginesNode(content: string): Omit<VersionDeclaration, 'file'> | null {
  const parsed = packageJsonSchema.safeParse(parseJson(content));
  const range = parsed.success ? parsed.data.engines?.node?.trim() : undefined;
  if (!range) return null;
  const text = `engines.node ${range}`;
  if (semver.validRange(range, { loose: true }) === null)
    return { text, constraint: { kind: 'unavailable', reason: 'not a semver range' } };
  return { text, constraint: { kind: 'semver', range } };
}

const pyprojectSchema = z.looseObject({
  project: z.looseObject({ 'requires-python': z.string().optional() }).optional(),
});

/** pyproject.toml [project] requires-python: a PEP 440 specifier set. */
function readRequiresPython(content: string): Omit<VersionDeclaration, 'file'> | null {
  const parsed = pyprojectSchema.safeParse(parseTomlOrNull(content));
  const spec = parsed.success ? parsed.data.project?.['requires-python']?.trim() : undefined;
  if (!spec) return null;
  const text = `requires-python ${spec}`;
  // validRange accepts what satisfies can evaluate; a probe catches the rest (it throws on garbage)
  if (!pep440ValidRange(spec) || !probePep440(spec))
    return { text, constraint: { kind: 'unavailable', reason: 'not a PEP 440 specifier' } };
  return { text, constraint: { kind: 'pep440', specifier: spec } };
}

/** .python-version (pyenv): the first version named; its major.minor is the series asked for. */
function readPythonPin(content: string): Omit<VersionDeclaration, 'file'> | null {
  const text = firstLine(content);
  if (text === '') return null;
  if (text === 'system') return { text, constraint: { kind: 'any' } };
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(text);
  if (!m) return { text, constraint: { kind: 'unavailable', reason: 'not a CPython version' } };
  return { text, constraint: { kind: 'series', version: `${m[1]}.${m[2]}` } };
}

const rustToolchainSchema = z.looseObject({
  toolchain: z.looseObject({ channel: z.string().optional() }).optional(),
});

/**
 * rust-toolchain(.toml): the channel. A numeric one is read as a minimum: Rust's stability promise
 * makes a newer stable compiler build what an older one did, and Debian carries no older ones.
 */
function readRustToolchain(content: string): Omit<VersionDeclaration, 'file'> | null {
  const toml = rustToolchainSchema.safeParse(parseTomlOrNull(content));
  const channel = toml.success && toml.data.toolchain ? toml.data.toolchain.channel?.trim() : firstLine(content);
  if (!channel) return null;
  const text = `channel ${channel}`;
  if (channel === 'stable') return { text, constraint: { kind: 'any' } };
  const m = /^(\d+\.\d+(?:\.\d+)?)(?:-[a-z0-9_]+(?:-[a-z0-9_]+)*)?$/.exec(channel);
  if (m && !/^(beta|nightly)/.test(channel)) return { text, constraint: { kind: 'at-least', version: m[1]! } };
  const reason = /^(beta|nightly)/.test(channel)
    ? 'a beta or nightly channel (only stable Rust is available)'
    : 'not a Rust channel';
  return { text, constraint: { kind: 'unavailable', reason } };
}

const cargoSchema = z.looseObject({
  package: z.looseObject({ 'rust-version': z.unknown().optional() }).optional(),
  workspace: z
    .looseObject({ package: z.looseObject({ 'rust-version': z.unknown().optional() }).optional() })
    .optional(),
});

/** Cargo.toml rust-version (the crate's, or the workspace's that it inherits): the least Rust that builds it. */
function readRustVersion(content: string): Omit<VersionDeclaration, 'file'> | null {
  const parsed = cargoSchema.safeParse(parseTomlOrNull(content));
  if (!parsed.success) return null;
  const own = parsed.data.package?.['rust-version'];
  const inherited = parsed.data.workspace?.package?.['rust-version'];
  const value = typeof own === 'string' ? own : typeof inherited === 'string' ? inherited : undefined;
  if (value === undefined) return null;
  const text = `rust-version ${value}`;
  if (!/^\d+\.\d+(\.\d+)?$/.test(value.trim()))
    return { text, constraint: { kind: 'unavailable', reason: 'not a Rust version' } };
  return { text, constraint: { kind: 'at-least', version: value.trim() } };
}

function firstLine(content: string): string {
  for (const raw of content.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line !== '') return line;
  }
  return '';
}

function parseJson(content: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return null;
  }
}

function parseTomlOrNull(content: string): unknown {
  try {
    return parseToml(content);
  } catch {
    return null;
  }
}

function probePep440(spec: string): boolean {
  try {
    pep440Satisfies('3.0.0', spec);
    return true;
  } catch {
    return false;
  }
}

/** What a repository wrote, safe to show: printable ASCII, at most 60 characters. */
function printable(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 60 ? `${clean.slice(0, 57)}...` : clean;
}
