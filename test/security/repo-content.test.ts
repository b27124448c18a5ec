// Hostile repository content: symlinks to host files, FIFOs and device nodes, a 2 GB file, a
// 200,000-file tree, and file names with newlines, leading dashes and bidi marks. Symlink targets
// never enter the sandbox, the prompt or the summary; special files are never opened; oversized
// trees are refused by the preflight with a clear error; odd names pass through intact and are
// shown escaped.
import { execFile } from 'node:child_process';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fixtureGitEnv, snapshotRepo } from '../helpers/fixture-repo.js';
import { answerWith, FIX_PATCH } from '../helpers/python-fixture.js';
import { promptText } from '../integration/run-support.js';
import { attack } from './support/record.js';
import {
  expectCanarySafe,
  expectNoLeftovers,
  expectRepoIntact,
  outcomeOf,
  runScene,
  type Scene,
} from './support/scene.js';
import { attackFileHooks } from './support/hooks.js';

const exec = promisify(execFile);
const { scene } = attackFileHooks();

/** Commit what is in the fixture's working tree now, and retake the "before" snapshot. */
async function commitAll(s: Scene, message: string, extraGit: string[] = []): Promise<void> {
  await s.fx.repo.git([...extraGit, 'add', '--all']);
  await s.fx.repo.git(['commit', '-q', '--no-verify', '-m', message]);
  s.before = await snapshotRepo(s.fx.repo.path);
}

describe('hostile repository content', () => {
  it('symlinks to host files: the targets never enter the sandbox, the prompt or the summary', async () => {
    const s = await scene({
      answers: [{ answer: answerWith(FIX_PATCH) }],
      testCommand: 'cat secret.txt rel-secret.txt 2>&1; python3 -m pytest -q',
    });
    const depth = s.fx.repo.path.split('/').length;
    await s.fx.repo.write({
      'secret.txt': { symlink: s.canary.file },
      'rel-secret.txt': { symlink: `${'../'.repeat(depth)}${s.canary.file.slice(1)}` },
    });
    await commitAll(s, 'links to a host file');
    // the directive names the links, so the context picker would want their content
    await appendFile(s.fx.directive, 'Read secret.txt and rel-secret.txt first.\n');
    const out = await runScene(s);
    await attack(
      'symlinks to host files in the repo',
      'target content in no sandbox, prompt, state or summary; run works',
      async () => {
        expect(out.state.status, out.result.stderr.slice(-800)).toBe('stable');
        const prompt = promptText(s.server.chatRequests()[0]);
        // control: a regular file the directive names is in the prompt with its content
        expect(prompt).toContain('result -= item');
        expect(prompt).toContain('secret.txt');
        expect(out.state.baseline?.stdout_tail).toMatch(/No such file|cannot open|secret/);
        await expectCanarySafe(s, out);
        await expectNoLeftovers(out.runId);
        return 'links copied as links; cat inside fails; the named regular file is in the prompt, the link target nowhere';
      },
    );
  });

  it('FIFOs and device nodes in the checkout are never opened: the run does not hang', async () => {
    const s = await scene({ answers: [{ answer: answerWith(FIX_PATCH) }] });
    const p = s.fx.repo.path;
    await exec('mkfifo', [join(p, 'pipe.fifo'), join(p, 'calc.fifo')]);
    const made = await exec('mknod', [join(p, 'null.dev'), 'c', '1', '3']).then(
      () => true,
      () => false,
    );
    await exec('python3', [
      '-c',
      `import socket; s=socket.socket(socket.AF_UNIX); s.bind(${JSON.stringify(join(p, 'sock.sock'))})`,
    ]);
    await appendFile(s.fx.directive, 'See pipe.fifo, null.dev and sock.sock.\n');
    s.before = await snapshotRepo(p);
    const out = await runScene(s);
    await attack(
      'FIFOs, sockets and device nodes in the checkout',
      'never opened; run completes; left as they were',
      async () => {
        expect(out.state.status, out.result.stderr.slice(-800)).toBe('stable');
        await expectRepoIntact(s);
        await expectCanarySafe(s, out);
        return `run stable; ${made ? 'FIFOs, a socket and a char device' : 'FIFOs and a socket (mknod not permitted here)'} untouched`;
      },
    );
  });

  it('a 2 GB file is refused by the preflight, naming the file and the limit', async () => {
    const s = await scene({ answers: [{ answer: answerWith(FIX_PATCH) }] });
    // sparse and outside the checkout: costs no disk; git stores it deflated (about 2 MB), and
    // only the commit holds it (hammer-box reads commits, never the working tree)
    const sparse = join(s.canary.dir, 'big.bin');
    await exec('truncate', ['-s', '2G', sparse]);
    const oid = (await s.fx.repo.git(['-c', 'core.compression=1', 'hash-object', '-w', sparse])).trim();
    await exec('rm', [sparse]);
    await s.fx.repo.git(['update-index', '--add', '--cacheinfo', `100644,${oid},big.bin`]);
    await s.fx.repo.git(['commit', '-q', '--no-verify', '-m', 'a 2 GB file']);
    s.before = await snapshotRepo(s.fx.repo.path);
    const result = await s.run();
    // control: a 20 MB file under a 64m workspace goes in
    const small = await scene({
      answers: [{ answer: answerWith(FIX_PATCH) }],
      config: '[sandbox]\nworkspace_size = "64m"\n',
    });
    await exec('truncate', ['-s', '20M', join(small.fx.repo.path, 'medium.bin')]);
    await commitAll(small, 'a 20 MB file');
    const ok = await runScene(small);
    await attack(
      'a 2 GB file in the repo',
      'refused by the preflight (REPO_INVALID, exit 2); a 20 MB file under a 64m workspace goes in',
      async () => {
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/REPO_INVALID[\s\S]*"big\.bin" \(2048 MiB\)[\s\S]*sandbox\.workspace_size/);
        const out = await outcomeOf(s, result);
        expect(out.state.status).toBe('error');
        await expectNoLeftovers(out.runId);
        await expectRepoIntact(s);
        await expectCanarySafe(s, out, 'not-run');
        expect(ok.state.status).toBe('stable');
        return `exit 2: ${/the base commit holds[^;]*/.exec(result.stderr)?.[0] ?? ''}; control run ${ok.state.status}`;
      },
    );
  });

  it('a 200,000-file tree is refused by the preflight with the count and the key to raise', async () => {
    const s = await scene({ answers: [{ answer: answerWith(FIX_PATCH) }] });
    const repo = s.fx.repo;
    await writeFile(join(s.canary.dir, 'one.txt'), 'x\n');
    const blob = (await repo.git(['hash-object', '-w', join(s.canary.dir, 'one.txt')])).trim();
    const head = await repo.head();
    const lines = [
      `commit refs/heads/main`,
      `committer Fixture <f@example.com> 1700000100 +0000`,
      `data 12`,
      `many files\n`,
      `from ${head}`,
    ];
    for (let i = 0; i < 200_000; i++)
      lines.push(`M 100644 ${blob} many/d${String(i % 500).padStart(3, '0')}/f${String(i).padStart(6, '0')}.txt`);
    const stream = join(s.canary.dir, 'import.txt');
    await writeFile(stream, `${lines.join('\n')}\n\n`);
    await exec('sh', ['-c', `git fast-import --quiet < '${stream}'`], { cwd: repo.path, env: fixtureGitEnv() });
    await repo.git(['read-tree', 'HEAD']);
    s.before = await snapshotRepo(repo.path);
    const result = await s.run();
    await attack(
      'a 200,000-file tree',
      'refused by the preflight (REPO_INVALID, exit 2) naming sandbox.max_repo_files',
      async () => {
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(
          'the base commit has 200003 files, over the limit of 100000 (sandbox.max_repo_files)',
        );
        const out = await outcomeOf(s, result);
        await expectNoLeftovers(out.runId);
        await expectRepoIntact(s);
        await expectCanarySafe(s, out, 'not-run');
        return 'exit 2: the base commit has 200003 files, over the limit of 100000 (sandbox.max_repo_files)';
      },
    );
  });

  it('file names with newlines, leading dashes and bidi marks pass through intact and are shown escaped', async () => {
    const names = ['new\nline.py', '-rf', '--help.py', '\u202egnp.py', 'zero\u200bwidth.txt'];
    const dash = `diff --git a/-rf b/-rf\n--- a/-rf\n+++ b/-rf\n@@ -1 +1 @@\n-dash file\n+dash file, edited\n`;
    const s = await scene({
      answers: [{ answer: answerWith(`${FIX_PATCH}${dash}`) }],
      testCommand: `python3 -c "import os; n=sorted(os.listdir('.')); print('names', len(n), ascii(n))"; python3 -m pytest -q`,
    });
    await s.fx.repo.write(
      Object.fromEntries(names.map((n) => [n, n === '-rf' ? 'dash file\n' : `# ${JSON.stringify(n)}\n`])),
    );
    await commitAll(s, 'odd names');
    const out = await runScene(s);
    await attack(
      'file names with newlines, leading dashes, bidi marks',
      'in the sandbox as named; shown escaped; a patch to "-rf" lands',
      async () => {
        expect(out.state.status, out.result.stderr.slice(-800)).toBe('stable');
        const listing = out.state.baseline?.stdout_tail ?? '';
        for (const n of ['-rf', '--help.py', '\\u202egnp.py', 'zero\\u200bwidth.txt']) expect(listing).toContain(n);
        const edited = await s.fx.repo.git(['show', `${out.state.branch!.commit}:-rf`]);
        expect(edited).toBe('dash file, edited\n');
        const raw = /[\u202a-\u202e\u2066-\u2069\u200b\u001b]/;
        for (const [where, text] of Object.entries({
          summary: out.summary,
          stdout: out.result.stdout,
          stderr: out.result.stderr,
          prompt: promptText(s.server.chatRequests()[0]),
        })) {
          expect(raw.test(text), `${where} holds a raw bidi or zero-width mark`).toBe(false);
        }
        expect(promptText(s.server.chatRequests()[0])).toContain('<U+202E>gnp.py');
        await expectCanarySafe(s, out);
        return `names intact in the sandbox (${/names (\d+)/.exec(listing)?.[1] ?? '?'} entries); prompt shows <U+202E>; "-rf" edited on the branch`;
      },
    );
  });
});
