import { describe, expect, it } from 'vitest';
import { readVersionDeclaration } from '../../../../src/images/versions/declarations.js';

const read = (toolchain: string, files: Record<string, string>) =>
  readVersionDeclaration(toolchain, new Map(Object.entries(files)));

describe('readVersionDeclaration: go', () => {
  it('reads the go line as a minimum', () => {
    expect(read('go', { 'go.mod': 'module example.com/m\n\ngo 1.22\n' })).toEqual({
      file: 'go.mod',
      text: 'go 1.22',
      constraint: { kind: 'at-least', version: '1.22' },
    });
  });
  it('takes the higher of the go and toolchain lines', () => {
    const d = read('go', { 'go.mod': 'module m\ngo 1.22.1 // comment\ntoolchain go1.23.4\n' });
    expect(d?.text).toBe('go 1.22.1, toolchain go1.23.4');
    expect(d?.constraint).toEqual({ kind: 'at-least', version: '1.23.4' });
  });
  it('is null without a go line', () => {
    expect(read('go', { 'go.mod': 'module m\n' })).toBeNull();
  });
});

describe('readVersionDeclaration: node', () => {
  it.each([
    ['22', { kind: 'semver', range: '22' }],
    ['v22.3.0', { kind: 'semver', range: '22.3.0' }],
    ['lts/iron', { kind: 'semver', range: '20' }],
    ['lts/*', { kind: 'semver', range: '24' }],
    ['node', { kind: 'any' }],
    ['lts/nosuch', { kind: 'unavailable', reason: 'an unknown LTS name' }],
    ['iojs', { kind: 'unavailable', reason: 'not a Node.js version' }],
  ])('.nvmrc %j', (text, constraint) => {
    expect(read('node', { '.nvmrc': `${text}\n` })).toEqual({ file: '.nvmrc', text, constraint });
  });
  it('prefers .nvmrc, then .node-version, then engines.node', () => {
    const pkg = JSON.stringify({ engines: { node: '>=18' } });
    expect(read('node', { '.nvmrc': '20', '.node-version': '22', 'package.json': pkg })?.file).toBe('.nvmrc');
    expect(read('node', { '.node-version': '22', 'package.json': pkg })?.file).toBe('.node-version');
    expect(read('node', { 'package.json': pkg })).toEqual({
      file: 'package.json',
      text: 'engines.node >=18',
      constraint: { kind: 'semver', range: '>=18' },
    });
  });
  it('ignores a package.json without engines.node, or one that is not JSON', () => {
    expect(read('node', { 'package.json': '{"name":"x"}' })).toBeNull();
    expect(read('node', { 'package.json': '{' })).toBeNull();
  });
});

describe('readVersionDeclaration: python', () => {
  it('reads requires-python, before .python-version', () => {
    const d = read('python', {
      'pyproject.toml': '[project]\nname = "x"\nrequires-python = ">=3.9"\n',
      '.python-version': '3.12\n',
    });
    expect(d).toEqual({
      file: 'pyproject.toml',
      text: 'requires-python >=3.9',
      constraint: { kind: 'pep440', specifier: '>=3.9' },
    });
  });
  it('reads .python-version as a series', () => {
    expect(read('python', { '.python-version': '3.12.4\n' })?.constraint).toEqual({ kind: 'series', version: '3.12' });
    expect(read('python', { '.python-version': 'pypy3.10\n' })?.constraint.kind).toBe('unavailable');
  });
  it('marks a specifier that is not PEP 440', () => {
    const d = read('python', { 'pyproject.toml': '[project]\nrequires-python = "^3.9"\n' });
    expect(d?.constraint).toEqual({ kind: 'unavailable', reason: 'not a PEP 440 specifier' });
  });
});

describe('readVersionDeclaration: rust', () => {
  it('reads rust-toolchain.toml channels', () => {
    expect(read('rust', { 'rust-toolchain.toml': '[toolchain]\nchannel = "1.80.0"\n' })?.constraint).toEqual({
      kind: 'at-least',
      version: '1.80.0',
    });
    expect(read('rust', { 'rust-toolchain.toml': '[toolchain]\nchannel = "stable"\n' })?.constraint).toEqual({
      kind: 'any',
    });
    expect(
      read('rust', { 'rust-toolchain.toml': '[toolchain]\nchannel = "nightly-2024-05-01"\n' })?.constraint,
    ).toEqual({ kind: 'unavailable', reason: 'a beta or nightly channel (only stable Rust is available)' });
  });
  it('reads a legacy rust-toolchain file', () => {
    expect(read('rust', { 'rust-toolchain': '1.79\n' })?.constraint).toEqual({ kind: 'at-least', version: '1.79' });
  });
  it('reads rust-version, the crate own or the workspace one', () => {
    expect(read('rust', { 'Cargo.toml': '[package]\nname = "x"\nrust-version = "1.88"\n' })).toEqual({
      file: 'Cargo.toml',
      text: 'rust-version 1.88',
      constraint: { kind: 'at-least', version: '1.88' },
    });
    const ws = '[workspace.package]\nrust-version = "1.90"\n[package]\nname = "x"\nrust-version.workspace = true\n';
    expect(read('rust', { 'Cargo.toml': ws })?.text).toBe('rust-version 1.90');
  });
  it('prefers the toolchain file over rust-version', () => {
    const d = read('rust', { 'rust-toolchain': '1.80\n', 'Cargo.toml': '[package]\nrust-version = "1.70"\n' });
    expect(d?.file).toBe('rust-toolchain');
  });
});

it('shows what a repository wrote only as printable ASCII, shortened', () => {
  const d = read('node', { '.nvmrc': `\u001b[31m${'9'.repeat(80)}` });
  expect(d?.text).toMatch(/^\?\[31m9+\.\.\.$/);
  expect(d?.text.length).toBe(60);
});
