import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LANGUAGE_IDS,
  MAX_PROBLEMS,
  analyzeSource,
  findDefinitions,
  languageForPath,
  parseProblems,
} from '../../../src/syntax/index.js';

describe('languageForPath', () => {
  it('maps extensions to grammars, case-insensitively, and unknown ones to null', () => {
    expect(languageForPath('src/app.py')).toBe('python');
    expect(languageForPath('stubs/app.pyi')).toBe('python');
    expect(languageForPath('a/b.JS')).toBe('javascript');
    expect(languageForPath('a/b.mjs')).toBe('javascript');
    expect(languageForPath('a/b.cjs')).toBe('javascript');
    expect(languageForPath('a/View.jsx')).toBe('javascript');
    expect(languageForPath('a/b.ts')).toBe('typescript');
    expect(languageForPath('a/b.d.ts')).toBe('typescript');
    expect(languageForPath('a/b.mts')).toBe('typescript');
    expect(languageForPath('a/View.tsx')).toBe('tsx');
    expect(languageForPath('cmd/main.go')).toBe('go');
    expect(languageForPath('src/lib.rs')).toBe('rust');
    expect(languageForPath('README.md')).toBeNull();
    expect(languageForPath('Makefile')).toBeNull();
    expect(languageForPath('.py')).toBeNull();
  });
});

describe('the runtime', () => {
  it('loads every grammar from its package and parses an empty text without problems', async () => {
    for (const id of LANGUAGE_IDS) {
      expect(await parseProblems(id, '')).toEqual([]);
      expect(await findDefinitions(id, '')).toEqual([]);
    }
  });

  it('answers concurrent first calls with one grammar load', async () => {
    const results = await Promise.all(LANGUAGE_IDS.map((id) => parseProblems(id, '(')));
    for (const r of results) expect(r.length).toBeGreaterThan(0);
  });

  it('is loaded lazily: no module of src/syntax imports web-tree-sitter at load time', () => {
    const dir = path.join(import.meta.dirname, '../../../src/syntax');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    for (const f of files) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      const staticImports = text.match(/^import (?!type ).*from 'web-tree-sitter';$/gm) ?? [];
      expect(staticImports, f).toEqual([]);
    }
    const runtime = readFileSync(path.join(dir, 'runtime.ts'), 'utf8');
    expect(runtime).toContain("await import('web-tree-sitter')");
  });

  it('survives text that is not code at all', async () => {
    const binaryish = '\u0000\u0001\u00ff'.repeat(100) + '\n'.repeat(10);
    for (const id of LANGUAGE_IDS) {
      const problems = await parseProblems(id, binaryish);
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.length).toBeLessThanOrEqual(MAX_PROBLEMS);
    }
  });

  it('gives up on a text the parser cannot finish within its budget, and says so', async () => {
    // 200,000 open brackets: tree-sitter's error recovery on this takes far more than a minute
    const hostile = '(['.repeat(100_000);
    expect(await parseProblems('python', hostile, { timeoutMs: 50 })).toEqual([
      { kind: 'timeout', message: 'not parsed: the time limit was reached', line: 1, column: 1, excerpt: '' },
    ]);
    const analysis = await analyzeSource('python', hostile, undefined, { timeoutMs: 50 });
    expect(analysis.timedOut).toBe(true);
    expect(analysis.definitions).toEqual([]);
    expect(await findDefinitions('python', hostile, { timeoutMs: 50 })).toEqual([]);
    // the parser is usable again afterwards
    expect(await findDefinitions('python', 'def f():\n    pass\n')).toHaveLength(1);
  });

  it('reads deeply nested code without overflowing the call stack', async () => {
    const depth = 20_000;
    const text = `x = ${'('.repeat(depth)}1 + ${')'.repeat(depth)}\n`;
    // slow to parse on a loaded machine: a budget that only a broken parser would spend
    const problems = await parseProblems('python', text, { timeoutMs: 120_000 });
    expect(problems.map((p) => [p.message, p.line, p.column])).toEqual([['syntax error near "+"', 1, depth + 7]]);
    const rust = `use ${'a::{'.repeat(200)}b${'}'.repeat(200)};\n`;
    expect(await parseProblems('rust', rust)).toEqual([]);
  });
});
