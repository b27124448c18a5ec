// The tasks file: JSONL lines validated one by one, errors naming file and line, directive files
// read once, and the task hash that decides whether earlier attempts still count.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { loadTasks, parseTaskLines, taskHash, taskSource } from '../../../src/batch/tasks-file.js';

const line = (t: Record<string, unknown>): string =>
  JSON.stringify({ id: 'a', repo: '.', commit: 'main', directive: 'fix it', ...t });

function problems(text: string): string {
  try {
    parseTaskLines(text, 'tasks.jsonl');
  } catch (err) {
    if (isHammerError(err, 'USAGE')) return err.message;
    throw err;
  }
  return '';
}

describe('parseTaskLines', () => {
  it('reads one task per line, skipping blank lines, with line numbers', () => {
    const got = parseTaskLines(`${line({ id: 'a' })}\n\n${line({ id: 'b', attempts: 3 })}\r\n`, 'f');
    expect(got.map((t) => [t.line, t.task.id, t.task.attempts])).toEqual([
      [1, 'a', undefined],
      [3, 'b', 3],
    ]);
  });

  it('names the file, the line and the field of every problem', () => {
    const text = [
      line({ id: 'ok' }),
      '{"id": "x", ',
      line({ id: 'bad id!' }),
      line({ id: 'c', colour: 'red' }),
      line({ id: 'd', directive: undefined }),
      line({ id: 'e', directive_file: 'd.md' }),
      line({ id: 'f', attempts: 0 }),
      line({ id: 'ok' }),
      line({ id: 'g', schema_version: 2 }),
    ].join('\n');
    const msg = problems(text);
    expect(msg).toMatch(/has 8 problems/);
    expect(msg).toMatch(/tasks\.jsonl:2: not JSON/);
    expect(msg).toMatch(/tasks\.jsonl:3: id: letters, digits/);
    expect(msg).toMatch(/tasks\.jsonl:4: colour: unknown field/);
    expect(msg).toMatch(/tasks\.jsonl:5: directive: give exactly one of directive/);
    expect(msg).toMatch(/tasks\.jsonl:6: directive: give exactly one of directive/);
    expect(msg).toMatch(/tasks\.jsonl:7: attempts: /);
    expect(msg).toMatch(/tasks\.jsonl:8: id: "ok" is already the id of line 1/);
    expect(msg).toMatch(/tasks\.jsonl:9: schema_version: /);
  });

  it('refuses ids that differ only in case (they would share a directory)', () => {
    expect(problems(`${line({ id: 'Fix' })}\n${line({ id: 'fix' })}`)).toMatch(
      /:2: id: "fix" is already the id of line 1/,
    );
  });

  it('needs a full commit id for a repository fetched from a URL', () => {
    expect(problems(line({ repo: 'https://example.com/r.git', commit: 'main' }))).toMatch(
      /:1: commit: a repository fetched from a URL needs a full commit id/,
    );
    expect(problems(line({ repo: 'https://example.com/r.git', commit: 'a'.repeat(40) }))).toBe('');
  });

  it('refuses a commit that could be read as an option, and an empty file', () => {
    expect(problems(line({ commit: '--upload-pack=x' }))).toMatch(/:1: commit: /);
    expect(problems('\n\n')).toMatch(/holds no tasks/);
  });
});

describe('taskSource', () => {
  it('keeps a URL, resolves a path against the tasks file', () => {
    expect(taskSource('https://h/r.git', '/t')).toEqual({ kind: 'url', url: 'https://h/r.git' });
    expect(taskSource('../repos/a', '/t/tasks')).toEqual({ kind: 'path', path: '/t/repos/a' });
    expect(taskSource('/abs/a/', '/t')).toEqual({ kind: 'path', path: '/abs/a' });
  });
});

describe('taskHash', () => {
  const base = { id: 'a', source: { kind: 'path' as const, path: '/r' }, commit: 'main', directive: 'fix it' };

  it('changes with what defines the task, not with the order of env keys', () => {
    const h = taskHash(base);
    expect(taskHash({ ...base, directive: 'fix it!' })).not.toBe(h);
    expect(taskHash({ ...base, testCommand: 'make test' })).not.toBe(h);
    expect(taskHash({ ...base, env: { A: '1', B: '2' } })).toBe(taskHash({ ...base, env: { B: '2', A: '1' } }));
  });
});

describe('loadTasks', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hb-tasks-'));
    await writeFile(join(dir, 'd.md'), 'Make the tests pass.\n');
    await writeFile(join(dir, 'empty.md'), '  \n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads directive files relative to the tasks file, and leaves attempts and timeout out of the hash', async () => {
    const file = join(dir, 'tasks.jsonl');
    await writeFile(
      file,
      [
        line({ id: 'a', directive: undefined, directive_file: 'd.md', repo: 'repo' }),
        line({ id: 'b', attempts: 2, timeout: 60 }),
        line({ id: 'c' }),
      ].join('\n'),
    );
    const [a, b, c] = await loadTasks(file);
    expect(a).toMatchObject({
      directive: 'Make the tests pass.\n',
      directiveLabel: join(dir, 'd.md'),
      attempts: 1,
      line: 1,
    });
    expect(a!.source).toEqual({ kind: 'path', path: join(dir, 'repo') });
    expect(b).toMatchObject({ attempts: 2, timeout: 60, directiveLabel: `${file}:2` });
    expect(b!.hash).toBe(taskHash({ ...c!, id: 'b' }));
  });

  it('refuses an empty or missing directive file with the line', async () => {
    const file = join(dir, 'bad.jsonl');
    await writeFile(file, line({ directive: undefined, directive_file: 'empty.md' }));
    await expect(loadTasks(file)).rejects.toThrow(/bad\.jsonl:1: directive_file: the directive file .* is empty/);
    await writeFile(file, line({ directive: undefined, directive_file: 'nope.md' }));
    await expect(loadTasks(file)).rejects.toThrow(/bad\.jsonl:1: directive_file: cannot read the directive file/);
  });
});
