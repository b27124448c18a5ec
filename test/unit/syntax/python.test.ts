import { describe, expect, it } from 'vitest';
import { analyzeSource, enclosingDefinitions, findDefinitions, parseProblems } from '../../../src/syntax/index.js';

const SOURCE = `"""Accounts and their ledgers."""
from __future__ import annotations

import os.path as osp, sys
from dataclasses import dataclass, field
from ..core.money import (Money,
                          round_half_even as rhe)
from . import events
from .util import *

MAX_BALANCE = 10_000
_default_currency = "EUR"


@dataclass(frozen=True)
class Account(Base):
    """An account."""

    owner: str

    class Meta:
        ordering = ["owner"]

    @property
    def balance(self) -> Money:
        total = Money(0)
        for entry in self.entries:
            total += entry.amount
        return total

    @staticmethod
    async def load(
        path: str,
        *,
        strict: bool = False,
    ) -> "Account":
        def parse(line):
            return line.split(",")

        return Account(owner=parse(osp.basename(path))[0])


def transfer(src: Account, dst: Account, amount: Money) -> None:
    if amount > MAX_BALANCE:
        raise ValueError("too much")
    events.emit("transfer", src, dst, amount)
`;

describe('python definitions', () => {
  it('finds classes, nested classes, decorated methods, nested functions and constants with their lines', async () => {
    const defs = await findDefinitions('python', SOURCE);
    expect(defs.map((d) => [d.kind, d.qualifiedName, d.startLine, d.endLine, d.depth])).toEqual([
      ['const', 'MAX_BALANCE', 11, 11, 0],
      ['class', 'Account', 15, 40, 0],
      ['class', 'Account.Meta', 21, 22, 1],
      ['method', 'Account.balance', 24, 29, 1],
      ['method', 'Account.load', 31, 40, 1],
      ['function', 'Account.load.parse', 37, 38, 2],
      ['function', 'transfer', 43, 46, 0],
    ]);
  });

  it('gives one-line signatures without decorators or bodies', async () => {
    const defs = await findDefinitions('python', SOURCE);
    const sig = (q: string): string | undefined => defs.find((d) => d.qualifiedName === q)?.signature;
    expect(sig('Account')).toBe('class Account(Base)');
    expect(sig('Account.balance')).toBe('def balance(self) -> Money');
    expect(sig('Account.load')).toBe('async def load( path: str, *, strict: bool = False, ) -> "Account"');
    expect(sig('transfer')).toBe('def transfer(src: Account, dst: Account, amount: Money) -> None');
    expect(sig('MAX_BALANCE')).toBe('MAX_BALANCE = 10_000');
  });

  it('names the enclosing definitions of a line, outermost first', async () => {
    const defs = await findDefinitions('python', SOURCE);
    expect(enclosingDefinitions(defs, 38).map((d) => d.qualifiedName)).toEqual([
      'Account',
      'Account.load',
      'Account.load.parse',
    ]);
    expect(enclosingDefinitions(defs, 24).map((d) => d.qualifiedName)).toEqual(['Account', 'Account.balance']);
    expect(enclosingDefinitions(defs, 13)).toEqual([]);
  });
});

describe('python imports', () => {
  it('reads absolute, aliased, relative (with level), from-import names and globs as written', async () => {
    const { imports } = await analyzeSource('python', SOURCE, { imports: true });
    expect(imports.map((i) => [i.kind, i.source, i.level, i.names, i.line])).toEqual([
      ['import', 'os.path', 0, [], 4],
      ['import', 'sys', 0, [], 4],
      ['from', 'dataclasses', 0, ['dataclass', 'field'], 5],
      ['from', 'core.money', 2, ['Money', 'round_half_even'], 6],
      ['from', '', 1, ['events'], 8],
      ['from', 'util', 1, ['*'], 9],
    ]);
  });

  it('reads imports inside functions and try blocks', async () => {
    const text =
      'try:\n    import ujson as json\nexcept ImportError:\n    import json\n\ndef f():\n    from pkg.sub import g\n';
    const { imports } = await analyzeSource('python', text, { imports: true });
    expect(imports.map((i) => `${i.line}:${i.source}`)).toEqual(['2:ujson', '4:json', '7:pkg.sub']);
  });
});

describe('python identifiers', () => {
  it('lists names used, not the names being defined', async () => {
    const { identifiers } = await analyzeSource('python', SOURCE, { identifiers: true });
    const names = identifiers.map((i) => i.name);
    expect(names).toContain('Money');
    expect(names).toContain('emit');
    expect(names.filter((n) => n === 'MAX_BALANCE')).toHaveLength(1); // the use in transfer, not the definition
    expect(names).not.toContain('transfer');
    expect(identifiers.find((i) => i.name === 'emit')?.line).toBe(46);
  });
});

describe('python parse problems', () => {
  it('has none for valid code', async () => {
    expect(await parseProblems('python', SOURCE)).toEqual([]);
  });

  it('reports an import line cut off after `import`', async () => {
    const text = 'import os\nfrom sympy.matrices.expressions.trace import\n\n\ndef trace(m):\n    return m\n';
    const problems = await parseProblems('python', text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: 'error', line: 2, column: 1 });
    expect(problems[0]?.excerpt).toBe('from sympy.matrices.expressions.trace import');
  });

  it('reports a docstring left unclosed', async () => {
    const text = 'def area(r):\n    """Return the area of a circle of\n    radius r.\n    return 3.14159 * r * r\n';
    const problems = await parseProblems('python', text);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatchObject({
      kind: 'error',
      line: 2,
      column: 5,
      excerpt: '    """Return the area of a circle of',
    });
  });

  it('reports a parameter inserted a second time (a SyntaxError to CPython, though it parses)', async () => {
    const text =
      'def request(method, url,\n            timeout=None,\n            verify=True,\n            timeout=None):\n    pass\n';
    expect(await parseProblems('python', text)).toEqual([
      {
        kind: 'duplicate-parameter',
        message: 'duplicate parameter "timeout"',
        line: 4,
        column: 13,
        excerpt: '            timeout=None):',
      },
    ]);
  });

  it('reports duplicates in lambdas and splats but not across functions', async () => {
    const text = 'f = lambda a, a: a\ndef g(*args, **args): pass\ndef h(a): pass\ndef k(a): pass\n';
    expect((await parseProblems('python', text)).map((p) => `${p.line}:${p.message}`)).toEqual([
      '1:duplicate parameter "a"',
      '2:duplicate parameter "args"',
    ]);
  });

  it('gives the same message for the same problem wherever it moves', async () => {
    const text = 'x = foo(1,\n';
    const [a] = await parseProblems('python', text);
    const [b] = await parseProblems('python', `\n\n# moved\n${text}`);
    expect(b?.message).toBe(a?.message);
    expect(b?.line).toBe((a?.line ?? 0) + 3);
  });
});
