// The apply ladder inside a real hardened sandbox, over the whole edit corpus: for each case the
// workspace is made afresh from the case's files, the host builds the candidates, and one `step`
// exec checks them in order and applies the first that passes. The commit's tree must be exactly
// the tree of the expected files, and the rung the expected one; cases that must be rejected
// apply nothing. One sandbox for the whole file.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { interpretAnswer } from '../../src/loop/interpret-answer.js';
import { SandboxRepo } from '../../src/loop/sandbox-repo.js';
import { sandboxSpec } from '../../src/loop/sandbox-spec.js';
import { sandboxCommitId } from '../../src/runner/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { loadEditCorpus, type EditCase } from '../fixtures/edits/corpus.js';
import { readFromTree, runLadderOnHost } from '../fixtures/edits/host-ladder.js';
import { toolchainImage } from '../helpers/images.js';
import { testEngine } from './sandbox-fixtures.js';

const { engine } = testEngine();
let sandbox: Sandbox;
let repo: SandboxRepo;
let corpus: EditCase[];

/** The git tree id of a set of files (what the sandbox's commit must have), computed on the host. */
async function treeOf(files: ReadonlyMap<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hb-ladder-tree-'));
  try {
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    };
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'core.autocrlf=false', ...args], { cwd: dir, env, encoding: 'utf8' });
    git('init', '-q', '--template=');
    for (const [p, c] of files) {
      await mkdir(dirname(join(dir, p)), { recursive: true });
      await writeFile(join(dir, p), c);
    }
    git('add', '-A', '-f');
    return git('write-tree').stdout.trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A fresh repository in the sandbox's workspace holding exactly `files`; returns its head. */
async function freshWorkspace(files: ReadonlyMap<string, string>): Promise<string> {
  const wipe = await sandbox.exec(
    ['sh', '-c', 'cd /workspace && rm -rf -- .git ./* ./.[!.]* 2>/dev/null; ls -A | wc -l'],
    { timeoutMs: 30_000 },
  );
  expect(wipe.stdout.text.trim()).toBe('0');
  await sandbox.putFiles(
    sandbox.workdir,
    [...files].map(([path, content]) => ({ path, content })),
  );
  return (await repo.init()).commit;
}

beforeAll(async () => {
  corpus = await loadEditCorpus();
  const { config } = await resolveConfig({ env: {} });
  const spec = sandboxSpec(config, `test-ladder-${process.pid}`, await toolchainImage());
  spec.limits = {
    ...spec.limits,
    memoryBytes: 512 * 1024 ** 2,
    workspaceBytes: 64 * 1024 ** 2,
    tmpBytes: 16 * 1024 ** 2,
  };
  sandbox = await engine.create(spec);
  repo = new SandboxRepo(sandbox, { execTimeoutMs: 60_000, maxOutputBytes: 64 * 1024 });
});
afterAll(async () => {
  await sandbox?.destroy();
});

describe('the apply ladder in a hardened sandbox', () => {
  it('applies every corpus case that must apply, at its rung, to exactly the expected tree, and nothing for the rest', async () => {
    const seen: { name: string; outcome: string; rung: string | null }[] = [];
    const want: { name: string; outcome: string; rung: string | null }[] = [];
    for (const c of corpus.filter((x) => x.expect !== 'unusable')) {
      const interp = await interpretAnswer(c.answer, { maxDiffLines: 500, format: c.format }, readFromTree(c.before));
      if (interp.kind !== 'diff') throw new Error(`${c.name}: ${interp.kind}`);
      want.push({ name: c.name, outcome: c.expect, rung: c.rung });
      // the syntax gate leaves candidates out on the host before the sandbox sees them
      // (src/loop/syntax-gate-run.ts); the host ladder runs the same gate
      const gated = new Set((await runLadderOnHost(c)).skipped);
      interp.candidates = interp.candidates.filter((x) => !gated.has(x.rung));
      if (interp.candidates.length === 0) {
        seen.push({ name: c.name, outcome: 'rejected', rung: null });
        continue;
      }
      const head = await freshWorkspace(c.before);
      const r = await repo.step(head, 'iter-01.patch', interp.candidates, `hammer: ${c.name}`, {
        command: 'true',
        timeoutMs: 30_000,
      });
      if (r.kind === 'rejected') {
        expect(r.messages, c.name).toHaveLength(interp.candidates.length);
        expect(
          r.messages.every((m) => m !== ''),
          c.name,
        ).toBe(true);
        seen.push({ name: c.name, outcome: 'rejected', rung: null });
        continue;
      }
      seen.push({ name: c.name, outcome: 'applied', rung: interp.candidates[r.candidate]!.rung });
      // the sandbox's commit is the one the expected tree makes with the runner's author, date and message
      if (c.after !== null)
        expect(r.commit, `${c.name}: the sandbox's tree`).toBe(
          sandboxCommitId(await treeOf(c.after), head, `hammer: ${c.name}`),
        );
    }
    expect(seen).toEqual(want);
    // one exec per case for the whole corpus (over a hundred cases) on a shared two-core machine
  }, 900_000);

  it('checks candidates without writing: after refused rungs, only the applied one changed the tree', async () => {
    const c = corpus.find((x) => x.name === 'relocated-trailing-spaces')!;
    const interp = await interpretAnswer(c.answer, { maxDiffLines: 500 }, readFromTree(c.before));
    if (interp.kind !== 'diff') throw new Error('no diff');
    expect(interp.candidates.map((x) => x.rung)).toEqual(['as_is', 'whitespace', 'relocated']);
    const head = await freshWorkspace(c.before);
    const r = await repo.step(head, 'iter-01.patch', interp.candidates, 'msg', {
      command: 'git status --porcelain',
      timeoutMs: 30_000,
    });
    expect(r.kind).toBe('applied');
    if (r.kind !== 'applied') return;
    expect(interp.candidates[r.candidate]!.rung).toBe('relocated');
    expect(r.test.stdout.text).toBe('');
    expect(r.commit).toBe(sandboxCommitId(await treeOf(c.after!), head, 'msg'));
  });
});
