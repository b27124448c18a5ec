// JavaScript and TypeScript cases: ESM, CommonJS, index files, TypeScript's .js imports, big files,
// workspace packages, TSX, and runners that print no path (TAP, a custom runner).
import { bigFile, noise, tapOutput, type ContextCase } from './shapes.js';

const JS_NOISE = noise('javascript', 'src/legacy', 24);
const TS_NOISE = noise('typescript', 'src/legacy', 24);

/** The JavaScript and TypeScript cases. */
export const JAVASCRIPT_CASES: ContextCase[] = [
  {
    name: 'js ESM import, TAP output without paths',
    language: 'javascript',
    files: {
      ...JS_NOISE,
      'package.json': '{ "type": "module", "scripts": { "test": "node --test" } }\n',
      'src/clamp.js':
        'export function clamp(value, low, high) {\n  if (value < low) return low;\n  if (value > high) return value;\n  return value;\n}\n',
      'test/clamp.test.js':
        "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { clamp } from '../src/clamp.js';\n\ntest('keeps values inside', () => {\n  assert.equal(clamp(5, 0, 10), 5);\n});\n\ntest('clamps high values', () => {\n  assert.equal(clamp(15, 0, 10), 10);\n});\n",
    },
    directive: 'Make the tests pass.',
    output: tapOutput('clamps high values', ['keeps values inside']),
    fix: [{ path: 'src/clamp.js', line: 'if (value > high) return value;' }],
  },
  {
    name: 'js CommonJS require without extension, spec reporter',
    language: 'javascript',
    files: {
      ...JS_NOISE,
      'lib/slug.js':
        "function slugify(text) {\n  return text.trim().toLowerCase().replace(/ /, '-');\n}\n\nmodule.exports = { slugify };\n",
      'test/slug.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { slugify } = require('../lib/slug');\n\ntest('replaces every space', () => {\n  assert.strictEqual(slugify('a b c'), 'a-b-c');\n});\n",
    },
    directive: 'slugify must replace every space.',
    output: `✖ replaces every space (1.1ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
  + actual - expected

  + 'a-b c'
  - 'a-b-c'
      at TestContext.<anonymous> (/workspace/test/slug.test.js:6:10)
      at Test.runInAsyncScope (node:async_hooks:206:9)
ℹ tests 1
ℹ pass 0
ℹ fail 1
`,
    fix: [{ path: 'lib/slug.js', line: "return text.trim().toLowerCase().replace(/ /, '-');" }],
  },
  {
    name: 'js directory import through an index re-export',
    language: 'javascript',
    files: {
      ...JS_NOISE,
      'src/utils/index.js': "export { chunk } from './chunk.js';\nexport { zip } from './zip.js';\n",
      'src/utils/chunk.js':
        'export function chunk(items, size) {\n  const out = [];\n  for (let i = 0; i < items.length - 1; i += size) out.push(items.slice(i, i + size));\n  return out;\n}\n',
      'src/utils/zip.js': 'export function zip(a, b) {\n  return a.map((x, i) => [x, b[i]]);\n}\n',
      'test/utils.test.mjs':
        "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { chunk } from '../src/utils/index.js';\n\ntest('chunk keeps the last item', () => {\n  assert.deepEqual(chunk([1, 2, 3], 2), [[1, 2], [3]]);\n});\n",
    },
    directive: 'chunk drops the last item.',
    output: tapOutput('chunk keeps the last item'),
    fix: [{ path: 'src/utils/chunk.js', line: 'for (let i = 0; i < items.length - 1; i += size)' }],
  },
  {
    name: 'ts import written with .js, vitest output',
    language: 'typescript',
    files: {
      ...TS_NOISE,
      'src/money.ts':
        'export function addCents(a: number, b: number): number {\n  return Math.round(a + b);\n}\n\nexport function toCents(amount: number): number {\n  return Math.floor(amount * 100);\n}\n',
      'test/money.test.ts':
        "import { describe, expect, it } from 'vitest';\nimport { toCents } from '../src/money.js';\n\ndescribe('toCents', () => {\n  it('rounds to the nearest cent', () => {\n    expect(toCents(0.29)).toBe(29);\n  });\n});\n",
    },
    directive: 'toCents truncates instead of rounding.',
    output: ` ❯ test/money.test.ts (1 test | 1 failed) 4ms
   × toCents > rounds to the nearest cent 3ms
     → expected 28 to be 29 // Object.is equality

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/money.test.ts > toCents > rounds to the nearest cent
AssertionError: expected 28 to be 29 // Object.is equality
 ❯ test/money.test.ts:6:26
      4| describe('toCents', () => {
      5|   it('rounds to the nearest cent', () => {
      6|     expect(toCents(0.29)).toBe(29);
       |                          ^
`,
    fix: [{ path: 'src/money.ts', line: 'return Math.floor(amount * 100);' }],
  },
  {
    name: 'ts big file, the fault deep inside, jest output',
    language: 'typescript',
    files: {
      ...TS_NOISE,
      'src/parser.ts': bigFile(
        'typescript',
        1000,
        920,
        "export function parseDuration(text: string): number {\n  const m = /^(\\d+)(ms|s)$/.exec(text);\n  if (!m) throw new Error(`bad duration: ${text}`);\n  return m[2] === 's' ? Number(m[1]) : Number(m[1]) * 1000;\n}\n",
      ),
      'test/parser.test.ts':
        "import { parseDuration } from '../src/parser';\n\ntest('seconds are milliseconds times 1000', () => {\n  expect(parseDuration('2s')).toBe(2000);\n});\n",
    },
    directive: 'parseDuration mixes up seconds and milliseconds.',
    output: ` FAIL  test/parser.test.ts
  ● seconds are milliseconds times 1000

    expect(received).toBe(expected) // Object.is equality

    Expected: 2000
    Received: 2

      2 |
      3 | test('seconds are milliseconds times 1000', () => {
    > 4 |   expect(parseDuration('2s')).toBe(2000);
        |                               ^
      5 | });

      at Object.<anonymous> (test/parser.test.ts:4:31)

Tests:       1 failed, 1 total
`,
    fix: [{ path: 'src/parser.ts', line: "return m[2] === 's' ? Number(m[1]) : Number(m[1]) * 1000;" }],
  },
  {
    name: 'js monorepo, a workspace package imported by name, mocha output',
    language: 'javascript',
    files: {
      ...JS_NOISE,
      'package.json': '{ "private": true, "workspaces": ["packages/*"] }\n',
      'packages/core/package.json': '{ "name": "@acme/core", "main": "src/index.js" }\n',
      'packages/core/src/index.js': "export { formatPrice } from './format.js';\n",
      'packages/core/src/format.js':
        "export function formatPrice(cents) {\n  return '$' + (cents / 10).toFixed(2);\n}\n",
      'packages/app/package.json': '{ "name": "@acme/app" }\n',
      'packages/app/test/app.test.js':
        "import assert from 'node:assert';\nimport { formatPrice } from '@acme/core';\n\ndescribe('prices', () => {\n  it('formats cents as dollars', () => {\n    assert.strictEqual(formatPrice(250), '$2.50');\n  });\n});\n",
    },
    directive: 'Prices are shown ten times too high.',
    output: `
  prices
    1) formats cents as dollars


  0 passing (5ms)
  1 failing

  1) prices
       formats cents as dollars:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

'$25.00' !== '$2.50'

      + expected - actual

      -$25.00
      +$2.50

      at Context.<anonymous> (file:///workspace/packages/app/test/app.test.js:6:12)
`,
    fix: [{ path: 'packages/core/src/format.js', line: "return '$' + (cents / 10).toFixed(2);" }],
  },
  {
    name: 'tsx component, jest output',
    language: 'typescript',
    files: {
      ...TS_NOISE,
      'src/components/Badge.tsx':
        'export function badgeLabel(count: number): string {\n  return count > 99 ? \'99+\' : String(count + 1);\n}\n\nexport function Badge({ count }: { count: number }) {\n  return <span className="badge">{badgeLabel(count)}</span>;\n}\n',
      'src/components/Badge.test.tsx':
        "import { badgeLabel } from './Badge';\n\ntest('shows the count', () => {\n  expect(badgeLabel(3)).toBe('3');\n});\n",
    },
    directive: 'The badge shows the wrong count.',
    output: ` FAIL  src/components/Badge.test.tsx
  ● shows the count

    expect(received).toBe(expected) // Object.is equality

    Expected: "3"
    Received: "4"

      at Object.<anonymous> (src/components/Badge.test.tsx:4:25)
`,
    fix: [{ path: 'src/components/Badge.tsx', line: "return count > 99 ? '99+' : String(count + 1);" }],
  },
  {
    name: 'js several test files, TAP names the failing one only by its test',
    language: 'javascript',
    files: {
      ...JS_NOISE,
      'src/cart.js': 'export function total(items) {\n  return items.reduce((sum, item) => sum + item.price, 0);\n}\n',
      'src/tax.js': 'export function tax(amount, rate) {\n  return amount * rate;\n}\n',
      'src/discount.js': 'export function discount(amount, percent) {\n  return amount - amount * percent;\n}\n',
      'test/cart.test.js':
        "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { total } from '../src/cart.js';\n\ntest('sums prices', () => {\n  assert.equal(total([{ price: 1 }, { price: 2 }]), 3);\n});\n",
      'test/tax.test.js':
        "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { tax } from '../src/tax.js';\n\ntest('applies the rate', () => {\n  assert.equal(tax(100, 0.2), 20);\n});\n",
      'test/discount.test.js':
        "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { discount } from '../src/discount.js';\n\ntest('percent discount is a percentage', () => {\n  assert.equal(discount(200, 10), 180);\n});\n",
    },
    directive: 'Fix the failing test.',
    output: tapOutput('percent discount is a percentage', ['sums prices', 'applies the rate']),
    fix: [{ path: 'src/discount.js', line: 'return amount - amount * percent;' }],
  },
  {
    name: 'js stack trace into the module',
    language: 'javascript',
    files: {
      ...JS_NOISE,
      'src/date.js':
        "export function parseDay(text) {\n  const [y, m, d] = text.split('-').map(Number);\n  if (m > 12) throw new RangeError('month');\n  return new Date(Date.UTC(y, m, d));\n}\n",
      'test/date.test.js':
        "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { parseDay } from '../src/date.js';\n\ntest('december is month 11', () => {\n  assert.equal(parseDay('2024-12-01').getUTCMonth(), 11);\n});\n",
    },
    directive: 'parseDay gets the month wrong.',
    output: `✖ december is month 11 (2.0ms)
  RangeError: month
      at parseDay (file:///workspace/src/date.js:3:22)
      at TestContext.<anonymous> (file:///workspace/test/date.test.js:6:16)
`,
    fix: [{ path: 'src/date.js', line: 'return new Date(Date.UTC(y, m, d));' }],
  },
  {
    name: 'js custom runner printing only the test name',
    language: 'javascript',
    files: {
      ...JS_NOISE,
      'lib/totals.js':
        'exports.roundTotal = function roundTotal(value) {\n  return Math.floor(value * 100) / 100;\n};\n',
      'spec/totals.spec.js':
        "const { roundTotal } = require('../lib/totals.js');\n\ncheck('totals are rounded half up', () => roundTotal(1.005) === 1.01);\n",
    },
    directive: 'Totals must be rounded half up.',
    output: 'running 1 check\n✗ totals are rounded half up\n1 failed\n',
    fix: [{ path: 'lib/totals.js', line: 'return Math.floor(value * 100) / 100;' }],
  },
];
