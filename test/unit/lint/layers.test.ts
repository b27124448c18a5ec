// The layers of src/ are held by lint: the project's ESLint config (its one layer list) refuses an
// import that runs back up the list, an import between two folders of one layer, a folder the list
// does not name, and a circle of imports. Each is shown on a small fixture linted with the project's
// own rule settings; then the real tree is linted with them, and docs/development.md is checked to
// show the same list.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const RULES = ['hammer/layers', 'hammer/import-cycles'] as const;

interface LayerOptions {
  root: string;
  layers: string[][];
}

/** The project's settings of the two rules and the plugin that holds them, as ESLint resolves them for a file of src/. */
async function projectRules(): Promise<{ plugin: unknown; rules: Linter.RulesRecord; layers: string[][] }> {
  const config = (await new ESLint({ cwd: ROOT }).calculateConfigForFile(join(ROOT, 'src/loop/run.ts'))) as {
    plugins?: Record<string, unknown>;
    rules?: Linter.RulesRecord;
  };
  const plugin = config.plugins?.['hammer'];
  const rules: Linter.RulesRecord = {};
  for (const r of RULES) {
    const entry = config.rules?.[r];
    if (entry === undefined) throw new Error(`${r} is not set for src/ in eslint.config.js`);
    rules[r] = entry;
  }
  const layers = ((rules['hammer/layers'] as [unknown, LayerOptions])[1] ?? { layers: [] }).layers;
  return { plugin, rules, layers };
}

/** ESLint with only the project's layer and circle rules, in `cwd` (src/ under it), no type information. */
function linter(cwd: string, plugin: unknown, rules: Linter.RulesRecord): ESLint {
  return new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { hammer: plugin as ESLint.Plugin },
        rules,
      },
    ],
  });
}

let project: Awaited<ReturnType<typeof projectRules>>;
let dir = '';

beforeAll(async () => {
  project = await projectRules();
  dir = mkdtempSync(join(tmpdir(), 'hammer-layers-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The messages of the two rules for `code` as the file `path` (relative to the fixture's root). */
async function lint(path: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await linter(dir, project.plugin, project.rules).lintText(code, { filePath: join(dir, path) });
  return result!.messages;
}

/** Write the fixture files (path → content) under the fixture's root. */
function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

describe('hammer/layers: each folder of src/ imports only the folders below it', () => {
  it('refuses an import that runs back up the list, naming the rule and both folders', async () => {
    const messages = await lint(
      'src/report/x.ts',
      "import { drive } from '../loop/run.js';\nexport const y = drive;\n",
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]!.ruleId).toBe('hammer/layers');
    expect(messages[0]!.message).toMatch(/src\/report\/.*src\/loop\//);
    const patch = await lint('src/patch/x.ts', "export { plan } from '../edits/plan.js';\n");
    expect(patch.map((m) => m.ruleId)).toEqual(['hammer/layers']);
  });

  it('refuses a type-only import and a dynamic import back up as well', async () => {
    const typeOnly = await lint(
      'src/state/x.ts',
      "import type { RunDeps } from '../loop/run-types.js';\nexport type Y = RunDeps;\n",
    );
    expect(typeOnly.map((m) => m.ruleId)).toEqual(['hammer/layers']);
    const dynamic = await lint('src/text/x.ts', "export const y = () => import('../report/pr-summary.js');\n");
    expect(dynamic.map((m) => m.ruleId)).toEqual(['hammer/layers']);
  });

  it('refuses an import between two folders of one layer (the loop and the report)', async () => {
    const messages = await lint(
      'src/loop/x.ts',
      "import { prTitle } from '../report/pr-title.js';\nexport const y = prTitle;\n",
    );
    expect(messages.map((m) => m.ruleId)).toEqual(['hammer/layers']);
    expect(messages[0]!.message).toMatch(/layer/);
  });

  it('refuses a folder that is in no layer, and an import of one', async () => {
    const own = await lint(
      'src/newfolder/x.ts',
      "import { sanitizeText } from '../text/sanitize.js';\nexport const y = sanitizeText;\n",
    );
    expect(own.map((m) => m.ruleId)).toEqual(['hammer/layers']);
    expect(own[0]!.message).toMatch(/newfolder/);
    const target = await lint('src/cli/x.ts', "import { z } from '../newfolder/z.js';\nexport const y = z;\n");
    expect(target.map((m) => m.ruleId)).toEqual(['hammer/layers']);
  });

  it('keeps the files directly in src/ (errors, log, paths, frames) below every folder', async () => {
    const messages = await lint(
      'src/errors.ts',
      "import { sanitizeText } from './text/sanitize.js';\nexport const y = sanitizeText;\n",
    );
    expect(messages.map((m) => m.ruleId)).toEqual(['hammer/layers']);
  });

  it('lets a folder import the folders below it, its own files and the files directly in src/', async () => {
    const code = [
      "import { sanitizeText } from '../text/sanitize.js';",
      "import type { RunState } from '../state/run-state.js';",
      "import { HammerError } from '../errors.js';",
      "import { assessRisk } from './risk.js';",
      'export const y = [sanitizeText, HammerError, assessRisk] as const;',
      'export type Z = RunState;',
      '',
    ].join('\n');
    expect(await lint('src/report/x.ts', code)).toEqual([]);
  });
});

describe('hammer/import-cycles: no circle of imports in src/', () => {
  it('refuses a circle inside one folder, naming the files on it', async () => {
    write({
      'src/context/a.ts': "import { b } from './b.js';\nexport const a = (): number => b();\n",
      'src/context/b.ts': "import type { C } from './c.js';\nexport const b = (): number => 1;\nexport type B = C;\n",
      'src/context/c.ts': "import { a } from './a.js';\nexport type C = ReturnType<typeof a>;\n",
    });
    const results = await linter(dir, project.plugin, project.rules).lintFiles(['src/context/*.ts']);
    for (const r of results) {
      expect(
        r.messages.map((m) => m.ruleId),
        r.filePath,
      ).toEqual(['hammer/import-cycles']);
      expect(r.messages[0]!.message).toMatch(/a\.ts.*b\.ts.*c\.ts|b\.ts.*c\.ts.*a\.ts|c\.ts.*a\.ts.*b\.ts/);
    }
    expect(results).toHaveLength(3);
  });

  it('refuses a circle between two folders (and the import that runs back up in it)', async () => {
    write({
      'src/patch/p.ts': "import { e } from '../edits/e.js';\nexport const p = (): number => e();\n",
      'src/edits/e.ts': "import { p } from '../patch/p.js';\nexport const e = (): number => p();\n",
    });
    const results = await linter(dir, project.plugin, project.rules).lintFiles(['src/patch/p.ts', 'src/edits/e.ts']);
    const byFile = new Map(results.map((r) => [r.filePath.slice(dir.length + 1), r.messages.map((m) => m.ruleId)]));
    expect(byFile.get('src/patch/p.ts')).toEqual(['hammer/layers', 'hammer/import-cycles']);
    expect(byFile.get('src/edits/e.ts')).toEqual(['hammer/import-cycles']);
  });

  it('passes files whose imports form no circle', async () => {
    write({
      'src/syntax/s1.ts': "import { s2 } from './s2.js';\nexport const s1 = (): number => s2();\n",
      'src/syntax/s2.ts': 'export const s2 = (): number => 2;\n',
    });
    const results = await linter(dir, project.plugin, project.rules).lintFiles(['src/syntax/*.ts']);
    expect(results.flatMap((r) => r.messages)).toEqual([]);
  });
});

describe('the layers of src/ as they are', () => {
  it('every folder of src/ is in exactly one layer of the list', () => {
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    const listed = project.layers.flat();
    expect([...listed].sort()).toEqual(folders);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('no file of src/ imports back up the list, across a layer, or in a circle', async () => {
    const results = await linter(ROOT, project.plugin, project.rules).lintFiles(['src/**/*.ts']);
    // only the two rules run here: a disable comment for another rule is not a problem of theirs
    const problems = results.flatMap((r) =>
      r.messages
        .filter((m) => m.fatal === true || RULES.some((rule) => rule === m.ruleId))
        .map((m) => `${r.filePath.slice(ROOT.length)}:${m.line} ${m.ruleId}: ${m.message}`),
    );
    expect(problems).toEqual([]);
    expect(results.length).toBeGreaterThan(300);
  });

  it('docs/development.md shows the same layers, top to bottom', () => {
    const doc = readFileSync(join(ROOT, 'docs/development.md'), 'utf8');
    const block = /<!-- layers -->\n([\s\S]*?)<!-- \/layers -->/.exec(doc);
    expect(block, 'docs/development.md has no <!-- layers --> block').not.toBeNull();
    const shown = block![1]!
      .split('\n')
      .filter((l) => /^\s*[-*] /.test(l))
      .map((l) => [...l.replace(/:.*$/, '').matchAll(/`src\/([\w-]+)\/`/g)].map((m) => m[1]!));
    expect(shown).toEqual(project.layers);
  });

  it("CONTRIBUTING.md's table of layers has one row a layer, in the same order", () => {
    const doc = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## The layers'), doc.indexOf('\n## ', doc.indexOf('## The layers') + 1));
    const rows = section
      .split('\n')
      .filter((l) => l.startsWith('| `src/'))
      .map((l) => [...l.split('|')[1]!.matchAll(/`src\/([\w-]+)\/`/g)].map((m) => m[1]!));
    expect(rows).toEqual(project.layers);
  });
});
