import { describe, expect, it } from 'vitest';
import { analyzeSource, findDefinitions, findImports, parseProblems } from '../../../src/syntax/index.js';

const JS = `'use strict';
import React, { useState as useLocalState, useEffect } from 'react';
import * as path from 'node:path';
import './polyfill.js';
export { clamp, lerp as mix } from './math.js';
export * from './colors.js';
const fs = require('fs');
const { readFile, writeFile: write } = require("node:fs/promises");
const DEFAULTS = { width: 80 };
let counter = 0;

export const MAX_WIDTH = 120;

/** Format a line. */
export const format = (text, width = MAX_WIDTH) => {
  return text.padEnd(width);
};

const wrap = function (text) {
  return [text];
};

export function Panel({ title, children }) {
  const [open, setOpen] = useLocalState(false);
  return <div className="panel">{open ? children : title}</div>;
}

export default class Renderer extends Base {
  #cache = new Map();
  onResize = (event) => {
    this.width = event.width;
  };

  static create() {
    return new Renderer();
  }

  async *lines(text) {
    yield* text.split('\\n');
  }
}

module.exports.legacy = function legacy(a) {
  return a;
};

async function lazy() {
  const { plugin } = await import('./plugin.js');
  const dynamic = await import(\`./locale/\${lang}.js\`);
  return plugin;
}
`;

describe('javascript definitions', () => {
  it('finds functions, arrow functions assigned to consts, classes, methods, fields and constants', async () => {
    const defs = await findDefinitions('javascript', JS);
    expect(defs.map((d) => [d.kind, d.qualifiedName, d.startLine, d.endLine])).toEqual([
      ['const', 'DEFAULTS', 9, 9],
      ['const', 'MAX_WIDTH', 12, 12],
      ['function', 'format', 15, 17],
      ['function', 'wrap', 19, 21],
      ['function', 'Panel', 23, 26],
      ['class', 'Renderer', 28, 41],
      ['method', 'Renderer.onResize', 30, 32],
      ['method', 'Renderer.create', 34, 36],
      ['method', 'Renderer.lines', 38, 40],
      ['function', 'legacy', 43, 45],
      ['function', 'lazy', 47, 51],
    ]);
  });

  it('gives signatures from the export keyword to the body', async () => {
    const defs = await findDefinitions('javascript', JS);
    const sig = (q: string): string | undefined => defs.find((d) => d.qualifiedName === q)?.signature;
    expect(sig('format')).toBe('export const format = (text, width = MAX_WIDTH) =>');
    expect(sig('Panel')).toBe('export function Panel({ title, children })');
    expect(sig('Renderer')).toBe('export default class Renderer extends Base');
    expect(sig('Renderer.lines')).toBe('async *lines(text)');
    expect(sig('MAX_WIDTH')).toBe('export const MAX_WIDTH = 120');
  });
});

describe('javascript imports', () => {
  it('reads import, export-from, require (with destructured names) and literal dynamic imports', async () => {
    const imports = await findImports('javascript', JS);
    expect(imports.map((i) => [i.kind, i.source, i.names, i.line])).toEqual([
      ['import', 'react', ['default', 'useState', 'useEffect'], 2],
      ['import', 'node:path', ['*'], 3],
      ['import', './polyfill.js', [], 4],
      ['export-from', './math.js', ['clamp', 'lerp'], 5],
      ['export-from', './colors.js', ['*'], 6],
      ['require', 'fs', [], 7],
      ['require', 'node:fs/promises', ['readFile', 'writeFile'], 8],
      ['dynamic', './plugin.js', [], 48],
    ]);
  });
});

describe('javascript identifiers and problems', () => {
  it('lists JSX and member names used', async () => {
    const { identifiers, problems } = await analyzeSource('javascript', JS);
    expect(problems).toEqual([]);
    const names = new Set(identifiers.map((i) => i.name));
    for (const n of ['useLocalState', 'children', 'width', 'padEnd', 'Base']) expect(names).toContain(n);
  });

  it('reports an import cut off in the middle of its braces', async () => {
    const problems = await parseProblems('javascript', 'import { a, b\n\nexport function f() {\n  return a;\n}\n');
    expect(problems[0]).toMatchObject({ kind: 'error', line: 1, excerpt: 'import { a, b' });
  });

  it('reports a function left unclosed at the end of an answer', async () => {
    const problems = await parseProblems('javascript', 'export function f(a) {\n  if (a) {\n    return 1;\n  }\n');
    expect(problems).toEqual([expect.objectContaining({ kind: 'missing', message: 'missing "}"' })]);
  });

  it('reports a duplicated parameter', async () => {
    const problems = await parseProblems('javascript', 'const f = (a, b = 1, ...a) => a;\n');
    expect(problems.map((p) => p.message)).toEqual(['duplicate parameter "a"']);
  });
});
