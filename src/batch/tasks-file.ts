// Reading a tasks file: JSONL, one task per line (blank lines skipped), every line validated, every
// error naming the file and line. Directive files are read here, once, so a batch's tasks cannot
// change under it.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { HammerError } from '../errors.js';
import { readDirective } from '../api/directive.js';
import { TaskLineSchema, type Task, type TaskLine, type TaskSource } from './task-schema.js';

/** The largest tasks file read. */
export const MAX_TASKS_FILE_BYTES = 64 * 1024 * 1024;
/** The largest directive file a task may name (a run refuses one over [prompt] directive_max_bytes). */
export const MAX_DIRECTIVE_FILE_BYTES = 1024 * 1024;

const FULL_COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** A parsed line: the task as written and its line number. */
export interface TaskAt {
  line: number;
  task: TaskLine;
}

/**
 * The tasks of a JSONL text, in order. USAGE naming `file:line` (and the field) for a line that is
 * not JSON or not a task, and for an id used twice. Pure.
 */
export function parseTaskLines(text: string, file: string): TaskAt[] {
  const out: TaskAt[] = [];
  const seen = new Map<string, number>();
  const problems: string[] = [];
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const lineNo = i + 1;
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      problems.push(`${file}:${lineNo}: not JSON: ${(err as Error).message}`);
      continue;
    }
    const parsed = TaskLineSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path.map(String).join('.');
        const keys = issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')}: unknown field` : '';
        problems.push(`${file}:${lineNo}: ${keys || `${key ? `${key}: ` : ''}${issue.message}`}`);
      }
      continue;
    }
    const task = parsed.data;
    if (isUrl(task.repo) && !FULL_COMMIT.test(task.commit))
      problems.push(`${file}:${lineNo}: commit: a repository fetched from a URL needs a full commit id (40 or 64 hex)`);
    const first = seen.get(task.id.toLowerCase());
    if (first !== undefined)
      problems.push(`${file}:${lineNo}: id: ${JSON.stringify(task.id)} is already the id of line ${first}`);
    else seen.set(task.id.toLowerCase(), lineNo);
    out.push({ line: lineNo, task });
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 20);
    throw new HammerError(
      'USAGE',
      `the tasks file has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n  ${shown.join('\n  ')}${problems.length > shown.length ? `\n  ... and ${problems.length - shown.length} more` : ''}`,
      { hint: 'each line is one JSON task object; the fields are listed in docs/running.md under "hammer-box batch"' },
    );
  }
  if (out.length === 0)
    throw new HammerError('USAGE', `${file} holds no tasks`, { hint: 'write one JSON task object per line' });
  return out;
}

/** True for a repository given as an http(s) URL (anything else is a local path). */
export function isUrl(repo: string): boolean {
  return /^https?:\/\//i.test(repo);
}

/** The task's source: a URL as written, or a path resolved against the tasks file's directory. */
export function taskSource(repo: string, tasksDir: string): TaskSource {
  if (isUrl(repo)) return { kind: 'url', url: repo };
  return { kind: 'path', path: isAbsolute(repo) ? resolve(repo) : resolve(tasksDir, repo) };
}

/** sha256 of what defines a task (everything but `attempts` and `timeout`), over canonical JSON. Pure. */
export function taskHash(task: Omit<Task, 'hash' | 'line' | 'attempts' | 'timeout' | 'directiveLabel'>): string {
  const fields: Record<string, unknown> = {
    id: task.id,
    source: task.source,
    commit: task.commit,
    directive: task.directive,
    toolchain: task.toolchain ?? null,
    toolchain_version: task.toolchainVersion ?? null,
    test_command: task.testCommand ?? null,
    test_timeout: task.testTimeout ?? null,
    max_iterations: task.maxIterations ?? null,
    env: task.env ? Object.fromEntries(Object.entries(task.env).sort(([a], [b]) => a.localeCompare(b))) : null,
    mode: task.mode ?? null,
    model: task.model ?? null,
  };
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** Read, validate and resolve a tasks file (USAGE with file and line for anything wrong). */
export async function loadTasks(file: string): Promise<Task[]> {
  const path = resolve(file);
  const text = await readCapped(path);
  const dir = dirname(path);
  const tasks: Task[] = [];
  for (const { line, task } of parseTaskLines(text, file)) {
    let directive: string;
    let directiveLabel: string;
    if (task.directive_file !== undefined) {
      directiveLabel = resolve(dir, task.directive_file);
      directive = await readDirective(directiveLabel, MAX_DIRECTIVE_FILE_BYTES).catch((err: unknown) => {
        throw new HammerError('USAGE', `${file}:${line}: directive_file: ${(err as Error).message}`, {
          hint: 'directive_file is a text file, relative to the tasks file',
        });
      });
    } else {
      directive = task.directive ?? '';
      directiveLabel = `${path}:${line}`;
      if (directive.trim() === '') throw new HammerError('USAGE', `${file}:${line}: directive: it is empty`);
    }
    const base = {
      id: task.id,
      source: taskSource(task.repo, dir),
      commit: task.commit,
      directive,
      ...(task.toolchain === undefined ? {} : { toolchain: task.toolchain }),
      ...(task.toolchain_version === undefined ? {} : { toolchainVersion: task.toolchain_version }),
      ...(task.test_command === undefined ? {} : { testCommand: task.test_command }),
      ...(task.test_timeout === undefined ? {} : { testTimeout: task.test_timeout }),
      ...(task.max_iterations === undefined ? {} : { maxIterations: task.max_iterations }),
      ...(task.env === undefined ? {} : { env: task.env }),
      ...(task.mode === undefined ? {} : { mode: task.mode }),
      ...(task.model === undefined ? {} : { model: task.model }),
    };
    tasks.push({
      ...base,
      directiveLabel,
      ...(task.timeout === undefined ? {} : { timeout: task.timeout }),
      attempts: task.attempts ?? 1,
      line,
      hash: taskHash(base),
    });
  }
  return tasks;
}

async function readCapped(path: string): Promise<string> {
  let fh;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new HammerError(
      'USAGE',
      `cannot read the tasks file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      { hint: 'pass a JSONL file with one task per line' },
    );
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new HammerError('USAGE', `the tasks file ${path} is not a regular file`);
    if (st.size > MAX_TASKS_FILE_BYTES)
      throw new HammerError('USAGE', `the tasks file ${path} is over ${MAX_TASKS_FILE_BYTES} bytes`, {
        hint: 'split it into several batches',
      });
    return (await fh.readFile()).toString('utf8');
  } finally {
    await fh.close();
  }
}
