import { describe, expect, it } from 'vitest';
import { findDefinitions, findImports, parseProblems } from '../../../src/syntax/index.js';

const TS = `import type { Config } from './config.js';
import fs = require('fs');

export interface Shape extends Named {
  area(): number;
  readonly sides: number;
}

export type Id = string | number;

type Handler<T> = (event: T) => void;

export enum Color {
  Red,
  Green,
}

export abstract class Base<T> implements Shape {
  @observable
  sides = 0;

  constructor(private readonly config: Config) {}

  abstract area(): number;

  @memoize()
  protected describe(prefix?: string): string {
    return \`\${prefix ?? ''}\${this.sides}\`;
  }

  handle = async (event: Event): Promise<void> => {
    await this.flush(event);
  };
}

export declare function measure(shape: Shape): number;

export namespace Geometry {
  export function origin(): [number, number] {
    return [0, 0];
  }
}

export const toId = <T extends { id: Id }>(value: T): Id => value.id;
`;

describe('typescript definitions', () => {
  it('finds interfaces, type aliases, enums, abstract classes, decorated methods, namespaces and generic arrows', async () => {
    const defs = await findDefinitions('typescript', TS);
    expect(defs.map((d) => [d.kind, d.qualifiedName, d.startLine, d.endLine])).toEqual([
      ['interface', 'Shape', 4, 7],
      ['type', 'Id', 9, 9],
      ['type', 'Handler', 11, 11],
      ['enum', 'Color', 13, 16],
      ['class', 'Base', 18, 34],
      ['method', 'Base.constructor', 22, 22],
      ['method', 'Base.area', 24, 24],
      ['method', 'Base.describe', 26, 29],
      ['method', 'Base.handle', 31, 33],
      ['function', 'measure', 36, 36],
      ['module', 'Geometry', 38, 42],
      ['function', 'Geometry.origin', 39, 41],
      ['function', 'toId', 44, 44],
    ]);
  });

  it('gives signatures with type parameters and return types', async () => {
    const defs = await findDefinitions('typescript', TS);
    const sig = (q: string): string | undefined => defs.find((d) => d.qualifiedName === q)?.signature;
    expect(sig('Shape')).toBe('export interface Shape extends Named');
    expect(sig('Id')).toBe('export type Id = string | number');
    expect(sig('Base')).toBe('export abstract class Base<T> implements Shape');
    expect(sig('Base.describe')).toBe('protected describe(prefix?: string): string');
    expect(sig('Base.handle')).toBe('handle = async (event: Event): Promise<void> =>');
    expect(sig('toId')).toBe('export const toId = <T extends { id: Id }>(value: T): Id =>');
  });

  it('reads type-only imports and import-equals-require', async () => {
    const imports = await findImports('typescript', TS);
    expect(imports.map((i) => [i.kind, i.source, i.names])).toEqual([
      ['import', './config.js', ['Config']],
      ['require', 'fs', []],
    ]);
  });

  it('has no problems in valid code, and reports a missing parenthesis and duplicated parameters', async () => {
    expect(await parseProblems('typescript', TS)).toEqual([]);
    const cut = await parseProblems('typescript', 'export function f(a: number {\n  return a;\n}\n');
    expect(cut).toEqual([
      { kind: 'missing', message: 'missing ")"', line: 1, column: 28, excerpt: 'export function f(a: number {' },
    ]);
    const dup = await parseProblems('typescript', 'function g(a: number, b?: string, a = 2): void {}\n');
    expect(dup.map((p) => p.message)).toEqual(['duplicate parameter "a"']);
  });
});

describe('tsx', () => {
  it('parses JSX in TypeScript and finds components', async () => {
    const text = `import { useState } from 'react';

export const Counter = ({ start }: { start: number }): JSX.Element => {
  const [n, setN] = useState<number>(start);
  return <button onClick={() => setN(n + 1)}>{n}</button>;
};
`;
    expect(await parseProblems('tsx', text)).toEqual([]);
    const defs = await findDefinitions('tsx', text);
    expect(defs.map((d) => [d.kind, d.name, d.startLine, d.endLine])).toEqual([['function', 'Counter', 3, 6]]);
    // the same text is not TypeScript: `<number>` and JSX do not parse without the TSX grammar
    expect((await parseProblems('typescript', text)).length).toBeGreaterThan(0);
  });

  it('reports an unclosed JSX expression', async () => {
    const problems = await parseProblems('tsx', 'export const A = () => <div>{x</div>;\n');
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]?.line).toBe(1);
  });
});
