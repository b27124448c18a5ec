// What the first prompt shows, end to end through the built CLI (real engine, real git, a scripted
// model server that records the prompt), for Python, JavaScript, Go and Rust: a failing test that
// imports a small module and a big one whose fault is deep inside. The prompt holds the small module
// whole and the big one's faulty definition as a region (never its head); the state and `runs show`
// say what was shown and why; the scripted fix of that region reaches tests-pass.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureRepo, tempDir, type FixtureRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { answerWith } from '../helpers/python-fixture.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { promptText, readState, testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/**
 * Filler definitions before the fault: the big file is far above prompt.file_max_bytes (16,000) and
 * prompt.budget_chars (48,000), so the repository is not small enough to be shown whole.
 */
const FILLERS = 1500;

interface Case {
  toolchain: 'python' | 'node' | 'go' | 'rust';
  /** The test file, the small module it imports, the big module with the fault. */
  test: string;
  small: string;
  big: string;
  files: (big: string) => Record<string, string>;
  filler: (i: number) => string;
  head: string;
  fault: string;
  fixed: string;
  /** The fault's enclosing definition, as the focus section names it. */
  label: string;
  /** Why the small module is shown: what of it the failing test calls. */
  smallWhy: string;
}

const CASES: Case[] = [
  {
    toolchain: 'python',
    test: 'tests/test_shop.py',
    small: 'shop/money.py',
    big: 'shop/big.py',
    files: (big) => ({
      'shop/__init__.py': '',
      'shop/money.py': 'def to_cents(amount):\n    return round(amount * 100)\n',
      'shop/big.py': big,
      'tests/test_shop.py':
        'from shop.big import discount\nfrom shop.money import to_cents\n\n\ndef test_discount_is_a_percentage():\n    assert to_cents(discount(200.0, 10)) == 18000\n',
    }),
    filler: (i) => `def filler_${i}(value):\n    return value * ${i % 7} + ${i}\n\n`,
    head: '"""Pricing helpers."""\n\n',
    fault: 'def discount(total, percent):\n    return total - total * percent\n\n',
    fixed: '    return total - total * percent / 100',
    label: 'discount',
    smallWhy: 'defines to_cents, called in the failing test',
  },
  {
    toolchain: 'node',
    test: 'test/shop.test.js',
    small: 'src/money.js',
    big: 'src/big.js',
    files: (big) => ({
      'package.json': '{ "name": "shop", "private": true, "type": "module", "scripts": { "test": "node --test" } }\n',
      'src/money.js': 'export function toCents(amount) {\n  return Math.round(amount * 100);\n}\n',
      'src/big.js': big,
      'test/shop.test.js':
        "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { discount } from '../src/big.js';\nimport { toCents } from '../src/money.js';\n\ntest('discount is a percentage', () => {\n  assert.equal(toCents(discount(200, 10)), 18000);\n});\n",
    }),
    filler: (i) => `export function filler${i}(value) {\n  return value * ${i % 7} + ${i};\n}\n\n`,
    head: '// Pricing helpers.\n\n',
    fault: 'export function discount(total, percent) {\n  return total - total * percent;\n}\n\n',
    fixed: '  return total - (total * percent) / 100;',
    label: 'discount',
    smallWhy: 'defines toCents, called in the failing test',
  },
  {
    toolchain: 'go',
    test: 'shop/big_test.go',
    small: 'money/money.go',
    big: 'shop/big.go',
    files: (big) => ({
      'go.mod': 'module example.com/shop\n\ngo 1.19\n',
      'money/money.go':
        'package money\n\nimport "math"\n\n// ToCents rounds an amount to cents.\nfunc ToCents(amount float64) int {\n\treturn int(math.Round(amount * 100))\n}\n',
      'shop/big.go': big,
      'shop/big_test.go':
        'package shop\n\nimport (\n\t"testing"\n\n\t"example.com/shop/money"\n)\n\nfunc TestDiscount(t *testing.T) {\n\tif got := money.ToCents(Discount(200, 10)); got != 18000 {\n\t\tt.Errorf("ToCents(Discount(200, 10)) = %d, want 18000", got)\n\t}\n}\n',
    }),
    filler: (i) =>
      `// Filler${i} scales a value.\nfunc Filler${i}(value int) int {\n\treturn value*${i % 7} + ${i}\n}\n\n`,
    head: 'package shop\n\n',
    fault:
      '// Discount takes percent off total.\nfunc Discount(total, percent float64) float64 {\n\treturn total - total*percent\n}\n\n',
    fixed: '\treturn total - total*percent/100',
    label: 'Discount',
    smallWhy: 'defines ToCents, called as money.ToCents in the failing test',
  },
  {
    toolchain: 'rust',
    test: 'tests/shop.rs',
    small: 'src/money.rs',
    big: 'src/big.rs',
    files: (big) => ({
      'Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
      'Cargo.lock':
        '# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 3\n\n[[package]]\nname = "shop"\nversion = "0.1.0"\n',
      'src/lib.rs': 'pub mod big;\npub mod money;\n',
      'src/money.rs': 'pub fn to_cents(amount: f64) -> i64 {\n    (amount * 100.0).round() as i64\n}\n',
      'src/big.rs': big,
      'tests/shop.rs':
        'use shop::big::discount;\nuse shop::money::to_cents;\n\n#[test]\nfn discount_is_a_percentage() {\n    assert_eq!(to_cents(discount(200.0, 10.0)), 18000);\n}\n',
    }),
    filler: (i) => `pub fn filler_${i}(value: i64) -> i64 {\n    value * ${i % 7} + ${i}\n}\n\n`,
    head: '//! Pricing helpers.\n\n',
    fault: 'pub fn discount(total: f64, percent: f64) -> f64 {\n    total - total * percent\n}\n\n',
    fixed: '    total - total * percent / 100.0',
    label: 'discount',
    smallWhy: 'defines to_cents, called in the failing test',
  },
];

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built CLI asynchronously (the model server lives in this process and must keep answering). */
function cli(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd: ROOT,
      env: testEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The big file: fillers, the fault after all of them, one filler more. */
function bigFile(c: Case): string {
  const fillers = Array.from({ length: FILLERS }, (_, i) => c.filler(i));
  return `${c.head}${fillers.join('')}${c.fault}${c.filler(FILLERS)}`;
}

/** A unified diff replacing the fault's line (the one holding `total * percent`) with the fix. */
function fixPatch(path: string, text: string, fixed: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /total \* ?percent$|total\*percent$|total \* percent;$/.test(l));
  const body = [` ${lines[at - 1]}`, `-${lines[at]}`, `+${fixed}`, ` ${lines[at + 1]}`];
  return `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -${at},3 +${at},3 @@\n${body.join('\n')}\n`;
}

beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'.`);
});

describe.each(CASES)('$toolchain: the first prompt', (c) => {
  let repo: FixtureRepo;
  let dir: string;
  let server: ModelServer;
  let result: CliResult;
  let prompt: string;
  const big = bigFile(c);

  beforeAll(async () => {
    await toolchainImage(c.toolchain);
    repo = await createFixtureRepo({ files: c.files(big) });
    dir = await tempDir('hb-directive-');
    await writeFile(join(dir, 'DIRECTIVE.md'), 'The discount test fails. Fix the code, not the test.\n');
    server = await startModelServer({ script: [{ answer: answerWith(fixPatch(c.big, big, c.fixed)) }] });
    result = await cli([
      'run',
      '--repo',
      repo.path,
      '--directive',
      join(dir, 'DIRECTIVE.md'),
      '--provider',
      'ollama',
      '--model',
      'test-model',
      '--llm-url',
      server.url,
      '--max-iterations',
      '2',
      '--json',
    ]);
    prompt = promptText(server.chatRequests()[0]);
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await repo?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('holds the module the failing test imports, whole', () => {
    expect(big.length).toBeGreaterThan(48_000);
    expect(prompt).toContain(`## ${c.test} (`);
    expect(prompt).toContain(`## ${c.small} (${c.smallWhy})`);
    // the module's lines, whole: a definition the failing code uses may stand in "Code in focus" instead
    const small = c.files(big)[c.small]!;
    for (const line of small.split('\n').filter((l) => l.trim() !== '')) {
      expect(prompt).toContain(line);
    }
  });

  it("holds the big file's faulty definition as a region, not the file's head", () => {
    expect(prompt).toContain(`## ${c.big} (`);
    expect(prompt).toMatch(/\[lines \d+-\d+\]\n/);
    expect(prompt).toMatch(/\[\.\.\. lines \d+-\d+ not shown \.\.\.\]/);
    expect(prompt).toContain(`## ${c.big}: ${c.label} (lines `);
    expect(prompt).toContain(c.fault.replace(/^\/\/[^\n]*\n/, '').trimEnd());
    expect(prompt).not.toContain(c.filler(0).trimEnd());
    expect(prompt).not.toContain(c.filler(FILLERS / 2).trimEnd());
  });

  it('records what was shown and why, and the scripted fix of that region passes', async () => {
    expect(result.code, `${result.stderr}\n${prompt.slice(-3000)}`).toBe(0);
    const doc = JSON.parse(result.stdout) as { run_id: string; status: string };
    expect(doc.status).toBe('stable');
    const state = await readState(repo.path, doc.run_id);
    const items = state.iterations[0]?.context?.items ?? [];
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: c.test, reason: 'failure', shown: 'whole' }),
        expect.objectContaining({ path: c.small, reason: 'import', shown: 'whole' }),
        expect.objectContaining({ path: c.big, reason: 'import', shown: 'regions' }),
      ]),
    );
    const show = await cli(['runs', 'show', doc.run_id, '--repo', repo.path]);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(
      new RegExp(`${c.big.replace(/[.]/g, '\\.')} \\(import: [^;]+; lines [\\d,-]+; \\d+ chars\\)`),
    );
  });
});
