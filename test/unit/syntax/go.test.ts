import { describe, expect, it } from 'vitest';
import { analyzeSource, enclosingDefinitions, findDefinitions, parseProblems } from '../../../src/syntax/index.js';

const GO = `// Package stack is a stack.
package stack

import "errors"

import (
	"fmt"
	str "strings"

	"example.com/shop/internal/money"
)

// MaxDepth bounds a stack.
const MaxDepth = 1 << 10

const (
	ModeLIFO Mode = iota
	ModeFIFO
)

var ErrEmpty = errors.New("stack: empty")

type Mode int

type ID = string

// Stack holds values.
type Stack[T any] struct {
	items []T
	mode  Mode
}

type Pusher[T any] interface {
	Push(v T) error
}

func New[T any](mode Mode) *Stack[T] {
	return &Stack[T]{mode: mode}
}

func (s *Stack[T]) Push(v T) error {
	if len(s.items) >= MaxDepth {
		return fmt.Errorf("depth %d: %w", MaxDepth, money.ErrLimit)
	}
	s.items = append(s.items, v)
	return nil
}

func (s Stack[T]) Len() int { return len(s.items) }

func label(m Mode) string {
	return str.ToUpper(fmt.Sprint(m))
}
`;

describe('go definitions', () => {
  it('finds functions, methods with receivers, structs, interfaces, types and top-level consts and vars', async () => {
    const defs = await findDefinitions('go', GO);
    expect(defs.map((d) => [d.kind, d.qualifiedName, d.startLine, d.endLine])).toEqual([
      ['const', 'MaxDepth', 14, 14],
      ['const', 'ModeLIFO', 17, 17],
      ['const', 'ModeFIFO', 18, 18],
      ['variable', 'ErrEmpty', 21, 21],
      ['type', 'Mode', 23, 23],
      ['type', 'ID', 25, 25],
      ['struct', 'Stack', 28, 31],
      ['interface', 'Pusher', 33, 35],
      ['function', 'New', 37, 39],
      ['method', 'Stack.Push', 41, 47],
      ['method', 'Stack.Len', 49, 49],
      ['function', 'label', 51, 53],
    ]);
  });

  it('gives signatures with receivers and type parameters', async () => {
    const defs = await findDefinitions('go', GO);
    const sig = (q: string): string | undefined => defs.find((d) => d.qualifiedName === q)?.signature;
    expect(sig('Stack.Push')).toBe('func (s *Stack[T]) Push(v T) error');
    expect(sig('Stack')).toBe('type Stack[T any] struct');
    expect(sig('Pusher')).toBe('type Pusher[T any] interface');
    expect(sig('New')).toBe('func New[T any](mode Mode) *Stack[T]');
    expect(sig('ModeLIFO')).toBe('ModeLIFO Mode = iota');
    expect(enclosingDefinitions(defs, 44).map((d) => d.qualifiedName)).toEqual(['Stack.Push']);
  });

  it('reads import paths, single and grouped, aliased or not', async () => {
    const { imports, problems } = await analyzeSource('go', GO);
    expect(problems).toEqual([]);
    expect(imports.map((i) => [i.kind, i.source, i.line])).toEqual([
      ['import', 'errors', 4],
      ['import', 'fmt', 7],
      ['import', 'strings', 8],
      ['import', 'example.com/shop/internal/money', 10],
    ]);
  });

  it('lists package, type and field names used', async () => {
    const { identifiers } = await analyzeSource('go', GO, { identifiers: true });
    const names = identifiers.map((i) => i.name);
    expect(names).toContain('ErrLimit');
    expect(names).toContain('Errorf');
    expect(names.filter((n) => n === 'MaxDepth')).toHaveLength(2);
    expect(names).not.toContain('label');
  });
});

describe('go parse problems', () => {
  it('reports a function cut off before its closing brace', async () => {
    const problems = await parseProblems('go', 'package m\n\nfunc F() int {\n\treturn 1\n');
    expect(problems).toEqual([{ kind: 'missing', message: 'missing "}"', line: 5, column: 1, excerpt: '' }]);
  });

  it('reports an import block cut off', async () => {
    const problems = await parseProblems('go', 'package m\n\nimport (\n\t"fmt"\n\t"str\n');
    expect(problems.length).toBeGreaterThan(0);
  });

  it('reports a parameter named twice, but not blank ones', async () => {
    const problems = await parseProblems('go', 'package m\n\nfunc F(a, b int, _ int, _ string, a bool) {}\n');
    expect(problems.map((p) => [p.message, p.line, p.column])).toEqual([['duplicate parameter "a"', 3, 35]]);
  });
});
