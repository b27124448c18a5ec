// The documentation keeps up with the code: every command and flag of the CLI, every config key of the
// schema and every error code is mentioned in README.md or a page of docs/, and every relative link
// and #anchor between those pages resolves.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildProgram } from '../../../src/cli/program.js';
import { ConfigSchema } from '../../../src/config/schema.js';
import { ERROR_CODES } from '../../../src/errors.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** README.md, CONTRIBUTING.md and every page of docs/, by path relative to the repository. */
function pages(): Map<string, string> {
  const files = [
    'README.md',
    'CONTRIBUTING.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return new Map(files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
}

/** The lines of a markdown text outside fenced code blocks (a ``` line whose info string holds a backtick is text). */
function proseLines(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (m && !(m[1]!.startsWith('`') && m[2]!.includes('`'))) {
      if (fence === null) fence = m[1]![0]!;
      else if (m[1]!.startsWith(fence)) fence = null;
      continue;
    }
    if (fence === null) out.push(line);
  }
  return out;
}

/** GitHub's anchor for a heading's text: lowercase, punctuation but `-` and `_` dropped, spaces to `-`. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** The anchors of a markdown text's headings; a repeated one gets -1, -2, ... as on GitHub. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of proseLines(text)) {
    const m = /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every inline link or image target in a markdown text's prose (not in code spans or fenced blocks). */
function links(text: string): string[] {
  const out: string[] = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/(`+)[^`]*?\1/g, '');
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push(m[1]!);
  }
  return out;
}

/** The links of `file` (relative to the repository) that do not resolve, with why. */
function brokenLinks(file: string, text: string, all: Map<string, string>): string[] {
  const broken: string[] = [];
  for (const target of links(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const hash = target.indexOf('#');
    const path = hash < 0 ? target : target.slice(0, hash);
    const anchor = hash < 0 ? null : target.slice(hash + 1);
    const dest = path === '' ? file : relative(ROOT, resolve(ROOT, dirname(file), decodeURIComponent(path)));
    if (dest.startsWith('..') || !(all.has(dest) || existsSync(join(ROOT, dest)))) {
      broken.push(`${file}: ${target}: no file ${dest}`);
      continue;
    }
    if (anchor === null) continue;
    const destText = all.get(dest) ?? (dest.endsWith('.md') ? readFileSync(join(ROOT, dest), 'utf8') : null);
    if (destText === null) broken.push(`${file}: ${target}: ${dest} is not markdown`);
    else if (!anchors(destText).has(anchor)) broken.push(`${file}: ${target}: no heading #${anchor} in ${dest}`);
  }
  return broken;
}

/** Every command with its full name (`runs show`) and the flags it takes (the long form, else the short). */
function commands(cmd: Command, prefix = ''): { name: string; flags: string[] }[] {
  return cmd.commands.flatMap((c) => {
    const name = `${prefix}${c.name()}`;
    const flags = c.options.flatMap((o) => o.long ?? o.short ?? []);
    return [{ name, flags }, ...commands(c, `${name} `)];
  });
}

/** The dotted keys of a zod object schema (`sandbox.trusted_repo`); records and arrays are leaves. */
function configKeys(schema: z.ZodType, prefix = ''): string[] {
  let s = schema as z.ZodType & { def: { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> } };
  while (s.def.innerType !== undefined && s.def.type !== 'object') s = s.def.innerType;
  if (s.def.type !== 'object' || s.def.shape === undefined) return [prefix.slice(0, -1)];
  return Object.entries(s.def.shape).flatMap(([k, v]) => configKeys(v, `${prefix}${k}.`));
}

/**
 * Whether the docs mention a config key: as `` `table.key` `` (the configuration table and most prose),
 * or as `` `key` `` in a paragraph that names its `[table]` ("`connect_timeout` ... in `[model]`").
 */
function mentionsKey(text: string, dotted: string): boolean {
  if (text.includes(`\`${dotted}\``)) return true;
  const at = dotted.lastIndexOf('.');
  const table = `[${dotted.slice(0, at)}]`;
  const key = `\`${dotted.slice(at + 1)}\``;
  return text.split(/\n\s*\n/).some((paragraph) => paragraph.includes(table) && paragraph.includes(key));
}

describe('the docs', () => {
  const all = pages();
  const docs = [...all.entries()].filter(([f]) => f !== 'CONTRIBUTING.md');
  const text = docs.map(([, t]) => t).join('\n');

  it('mention every command as `hammer-box <command>` and every flag it takes', () => {
    const missing: string[] = [];
    const program = buildProgram('0.0.0-test');
    const list = commands(program);
    expect(list.length).toBeGreaterThan(10);
    for (const { name, flags } of list) {
      if (!text.includes(`hammer-box ${name}`)) missing.push(`hammer-box ${name}`);
      for (const flag of flags) {
        if (!new RegExp(`${flag}(?![\\w-])`).test(text)) missing.push(`hammer-box ${name} ${flag}`);
      }
    }
    for (const o of program.options) {
      const flag = o.long ?? o.short!;
      if (!new RegExp(`${flag}(?![\\w-])`).test(text)) missing.push(`hammer-box ${flag}`);
    }
    expect(missing).toEqual([]);
  });

  it('mention every config key of the schema', () => {
    const keys = configKeys(ConfigSchema);
    expect(keys).toContain('sandbox.trusted_repo');
    expect(keys).toContain('kubernetes.registry');
    expect(keys.filter((k) => !mentionsKey(text, k))).toEqual([]);
  });

  it('mention every error code as `CODE`', () => {
    expect(ERROR_CODES.filter((code) => !text.includes(`\`${code}\``))).toEqual([]);
  });

  it('have only relative links and anchors that resolve', () => {
    expect([...all.entries()].flatMap(([file, t]) => brokenLinks(file, t, all))).toEqual([]);
  });

  it('have an index linking every page, and a README linking the index', () => {
    const index = all.get('docs/README.md')!;
    for (const file of all.keys()) {
      if (file.startsWith('docs/') && file !== 'docs/README.md') expect(index).toContain(`](${file.slice(5)})`);
    }
    expect(all.get('README.md')).toContain('](docs/README.md)');
  });
});

describe('the link checker', () => {
  it('makes GitHub anchors, numbering repeated headings', () => {
    expect(slug('`hammer-box batch`: many tasks, one report')).toBe('hammer-box-batch-many-tasks-one-report');
    expect(slug('`hammer-box plan`, then `run --plan`')).toBe('hammer-box-plan-then-run---plan');
    expect(slug('The runner (inside the sandbox)')).toBe('the-runner-inside-the-sandbox');
    expect([...anchors('# A\n## Commands\n```\n# not a heading\n```\n### Commands\n')]).toEqual([
      'a',
      'commands',
      'commands-1',
    ]);
  });

  it('finds a missing file and a missing anchor', () => {
    const all = new Map([['docs/x.md', '# X\n\n[a](y.md) [b](#nope) [c](#x) `[d](#code)`\n']]);
    expect(brokenLinks('docs/x.md', all.get('docs/x.md')!, all)).toEqual([
      'docs/x.md: y.md: no file docs/y.md',
      'docs/x.md: #nope: no heading #nope in docs/x.md',
    ]);
  });
});
