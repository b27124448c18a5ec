// The run store: state files in <dir>/runs/<run_id>.json, artifacts in <dir>/runs/<run_id>/.
// Every state file is sealed with the user's state key; a file whose seal does not verify is not
// trusted (a repository can carry any file under its .hammer/, but not the key).
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HammerError, isHammerError } from '../errors.js';
import { sweepTempFiles, writeFileAtomic } from './atomic-write.js';
import { boundStateTexts } from './bound-texts.js';
import { isRunId, newRunId, RUN_ID_PATTERN } from './run-id.js';
import {
  ArtifactNameSchema,
  RUN_STATE_SCHEMA_VERSION,
  RunStateSchema,
  type Iteration,
  type RunState,
} from './run-state.js';
import { STATE_KEY_ENV, type StateKey } from './state-key.js';
import { parseToolCallsArtifact, type RecordedToolCall } from './tool-calls-artifact.js';
import { openSealedState, sealState } from './state-mac.js';

/** The largest state file read or written (its free texts are bounded far below this). */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;
const MAX_ARTIFACT_BYTES = 64 * 1024 * 1024;

/** What hammer-box writes to <state dir>/.gitignore: everything in it stays out of git. */
export const STATE_GITIGNORE = '# Written by hammer-box: run states and artifacts stay out of git.\n*\n';

export interface RunStoreOptions {
  /** The state directory, <repo>/.hammer (checked by the caller: a real directory inside the repository). */
  dir: string;
  /** The user's state key: every state file written is sealed with it, every one read must verify. */
  key: StateKey;
}

/** A recorded model answer as replay plays it back (see readReplayAnswers and readTurnAnswers). */
export interface RecordedTurnAnswer {
  text: string;
  finishReason?: string;
  toolCalls?: RecordedToolCall[];
  /** The agent trajectory ended after this answer, at this bound. */
  trajectoryEnd?: string;
}

/** A state file list() could not read, and why. */
export interface SkippedStateFile {
  file: string;
  message: string;
}

/** What list() found: readable runs, newest first, and the files it had to skip. */
export interface RunList {
  runs: RunState[];
  skipped: SkippedStateFile[];
}

/** Reads and writes run states and artifacts under one state directory. */
export class RunStore {
  readonly dir: string;
  readonly runsDir: string;
  // Writes of one run are serialised so the file always ends up holding the last state written.
  readonly #pending = new Map<string, Promise<void>>();
  /** Iterations written (as given) and what was validated and written for them. */
  readonly #written = new WeakMap<Iteration, Iteration>();
  readonly #key: StateKey;

  constructor(options: RunStoreOptions) {
    this.dir = options.dir;
    this.runsDir = join(options.dir, 'runs');
    this.#key = options.key;
  }

  /** A new unique run id (timestamp to the second plus random base32). */
  newRunId(now?: Date, random?: (n: number) => Uint8Array): string {
    return newRunId(now, random);
  }

  /** The state file of a run. */
  statePath(runId: string): string {
    return join(this.runsDir, `${checkRunId(runId)}.json`);
  }

  /** The artifacts directory of a run (PR_SUMMARY.md, prompts, answers, patches, logs). */
  artifactsDir(runId: string): string {
    return join(this.runsDir, checkRunId(runId));
  }

  /** Start a run: claim its id (fails if taken) and write its first state. */
  async create(state: RunState): Promise<void> {
    const runId = checkRunId(state.run_id);
    // each level checked before anything is made in it: nothing is ever made through a symlink (the
    // caller has checked the levels between the repository and this.dir)
    await this.#refuseSymlinks([this.dir], true);
    await mkdir(this.dir, { recursive: true });
    await this.#refuseSymlinks([this.dir]);
    await mkdir(this.runsDir).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
    await this.#refuseSymlinks([this.dir, this.runsDir]);
    await this.#ignoreInGit();
    // state writes cut short by kill -9 leave temp files; a new run clears those of dead writers
    await sweepTempFiles(this.runsDir);
    try {
      await mkdir(this.artifactsDir(runId));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new HammerError('INTERNAL', `run id ${runId} is already taken in ${this.runsDir}`, { cause: err });
      }
      throw err;
    }
    await this.write(state);
  }

  /** Replace a run's state file atomically (temp file, fsync, rename, fsync dir), its free texts bounded, sealed. */
  async write(state: RunState): Promise<void> {
    // an iteration written before, unchanged (the transitions replace what they change, so the
    // same object), is not validated again: a write costs the same in iteration 1 and 20
    const known = state.iterations.map((it) => this.#written.get(it));
    const unknownAt = state.iterations.flatMap((_, i) => (known[i] ? [] : [i]));
    const bounded = boundStateTexts({ ...state, iterations: unknownAt.map((i) => state.iterations[i]!) });
    const parsed = RunStateSchema.safeParse(bounded);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = [...(issue?.path ?? [])];
      // the index among the iterations validated is not the state's: map it back
      if (at[0] === 'iterations' && typeof at[1] === 'number') at[1] = unknownAt[at[1]] ?? at[1];
      throw new HammerError(
        'INTERNAL',
        `refusing to write an invalid run state: ${issuePath(at)}: ${issue?.message ?? ''}`,
      );
    }
    const fresh = parsed.data.iterations.values();
    const iterations = state.iterations.map((it, i) => {
      const valid = known[i] ?? fresh.next().value!;
      this.#written.set(it, valid);
      return valid;
    });
    const path = this.statePath(state.run_id);
    const body = sealState(`${JSON.stringify({ ...parsed.data, iterations }, null, 2)}\n`, this.#key.bytes);
    if (Buffer.byteLength(body) > MAX_STATE_BYTES)
      throw new HammerError(
        'STATE_UNWRITABLE',
        `the state of run ${state.run_id} would be over ${MAX_STATE_BYTES} bytes`,
        {
          hint: 'lower loop.max_iterations or the [prompt] output line limits',
        },
      );
    await this.#serialise(state.run_id, async () => {
      // never through a link (a resumed run's directories were checked when it started, not since)
      await refuseLinks([this.dir, this.runsDir]);
      await writeFileAtomic(path, body).catch((err: unknown) => unwritable(err, path, state.run_id));
    });
  }

  /** Read, verify and validate a run's state. Throws RUN_NOT_FOUND or STATE_INVALID (naming file, and field or seal). */
  async read(runId: string): Promise<RunState> {
    if (!isRunId(runId)) {
      throw new HammerError(
        'RUN_NOT_FOUND',
        `no run ${JSON.stringify(runId)}: run ids look like 20261122T140501Z-k3b7qa`,
        {
          hint: 'list runs with: hammer-box runs list',
        },
      );
    }
    const path = this.statePath(runId);
    let text: string;
    try {
      text = (await readCapped(path, MAX_STATE_BYTES)).toString('utf8');
    } catch (err) {
      if (isHammerError(err)) throw err;
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new HammerError('RUN_NOT_FOUND', `no run ${runId} in ${this.runsDir}`, {
          hint: 'list runs with: hammer-box runs list',
          cause: err,
        });
      }
      throw new HammerError('STATE_INVALID', `${path}: cannot read: ${(err as Error).message}`, { cause: err });
    }
    return parseState(path, runId, this.#open(path, text));
  }

  /** The body of a state file whose seal verifies under the user's key; STATE_INVALID saying why not. */
  #open(path: string, text: string): string {
    const opened = openSealedState(text, this.#key.bytes);
    if (opened.ok) return opened.body;
    const why =
      opened.reason === 'unsealed'
        ? 'it carries no seal, so hammer-box did not write it for you (a state file committed to the repository or copied from elsewhere, or one written before state files were sealed)'
        : `its seal does not match your state key (${this.#key.source}): the file was changed after hammer-box wrote it, or it was written under another key`;
    throw new HammerError('STATE_INVALID', `${path}: not trusted: ${why}`, {
      hint: `hammer-box resumes, replays and lists only runs it recorded under your key; start a new run with 'hammer-box run' (a run recorded on another machine needs that machine's key in ${STATE_KEY_ENV})`,
    });
  }

  /** The ids of every run with a state file (read or not), in no particular order. */
  async runIds(): Promise<string[]> {
    const names = await readdir(this.runsDir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw err;
    });
    return names
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -'.json'.length))
      .filter(isRunId);
  }

  /** Every readable run, newest first; unreadable state files are reported, not fatal. Temp files are ignored. */
  async list(): Promise<RunList> {
    let names: string[];
    try {
      names = await readdir(this.runsDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { runs: [], skipped: [] };
      throw err;
    }
    const runs: RunState[] = [];
    const skipped: SkippedStateFile[] = [];
    for (const name of names.sort()) {
      const runId = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
      if (!RUN_ID_PATTERN.test(runId)) continue;
      try {
        runs.push(await this.read(runId));
      } catch (err) {
        if (!isHammerError(err)) throw err;
        skipped.push({ file: join(this.runsDir, name), message: err.message });
      }
    }
    runs.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.run_id.localeCompare(a.run_id));
    return { runs, skipped };
  }

  /**
   * Write one artifact of a run (atomically) and return its name relative to the artifacts directory.
   * It is written in turn with the run's state writes: a state write started after it lands after
   * it, so a caller need not wait for an artifact before writing the state that names it.
   */
  async writeArtifact(runId: string, name: string, content: string | Uint8Array): Promise<string> {
    const file = checkArtifactName(name);
    const dir = this.artifactsDir(runId);
    await this.#serialise(runId, async () => {
      // each level a real directory, the run's own made here if missing: never written through a link
      await refuseLinks([this.dir, this.runsDir, dir]);
      await mkdir(dir, { recursive: true });
      // atomic but not fsynced: the state file that names it is written durably after it
      await writeFileAtomic(join(dir, file), content, { durable: false }).catch((err: unknown) =>
        unwritable(err, join(dir, file), runId),
      );
    });
    return file;
  }

  /** Read one artifact of a run (refusing symlinks and oversized files). */
  async readArtifact(runId: string, name: string): Promise<string> {
    const path = join(this.artifactsDir(runId), checkArtifactName(name));
    try {
      return (await readCapped(path, MAX_ARTIFACT_BYTES)).toString('utf8');
    } catch (err) {
      if (isHammerError(err)) throw err;
      throw new HammerError('STATE_INVALID', `${path}: cannot read artifact: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }

  /** Delete a run's state file and its artifacts directory (symlinks are removed, never followed). */
  async remove(runId: string): Promise<void> {
    await this.#refuseSymlinks([this.dir, this.runsDir]);
    await rm(this.artifactsDir(runId), { recursive: true, force: true });
    await rm(this.statePath(runId), { force: true });
  }

  /**
   * The model answers recorded by a run, in iteration order, with the server's finish reason when
   * it was recorded: what `hammer-box replay <run_id>` plays back.
   */
  async readReplayAnswers(runId: string): Promise<RecordedTurnAnswer[]> {
    const state = await this.read(runId);
    const answers: RecordedTurnAnswer[] = [];
    for (const it of [...state.iterations].sort((a, b) => a.n - b.n)) {
      // the answers that asked to see more came before the iteration's answer, with their tool calls
      for (const ask of it.asks ?? []) {
        const text = await this.readArtifact(runId, ask.answer_artifact);
        const calls = ask.tool_calls_artifact;
        if (calls === undefined) answers.push({ text });
        else {
          const toolCalls = parseToolCallsArtifact(await this.readArtifact(runId, calls), `${runId}/${calls}`);
          answers.push({ text, toolCalls });
        }
      }
      answers.push(...(await this.readTurnAnswers(runId, it)));
      if (it.answer === null) continue;
      const text = await this.readArtifact(runId, it.answer.artifact);
      answers.push(it.answer.finish_reason === undefined ? { text } : { text, finishReason: it.answer.finish_reason });
    }
    return answers;
  }

  /**
   * An agent iteration's recorded answers, in order, each with its tool calls and finish reason; the
   * last carries how the trajectory ended when a bound (not a submit) ended it, so a replay or a
   * resume ends there too.
   */
  async readTurnAnswers(runId: string, it: Iteration): Promise<RecordedTurnAnswer[]> {
    const turns = it.trajectory?.turns ?? [];
    const out: RecordedTurnAnswer[] = [];
    for (const [i, turn] of turns.entries()) {
      const text = await this.readArtifact(runId, turn.answer_artifact);
      const calls = turn.tool_calls_artifact;
      const end = i === turns.length - 1 ? it.trajectory?.end : null;
      out.push({
        text,
        ...(calls === undefined
          ? {}
          : { toolCalls: parseToolCallsArtifact(await this.readArtifact(runId, calls), `${runId}/${calls}`) }),
        ...(turn.finish_reason === undefined ? {} : { finishReason: turn.finish_reason }),
        ...(end && end.reason !== 'submitted' ? { trajectoryEnd: end.reason } : {}),
      });
    }
    return out;
  }

  async #ignoreInGit(): Promise<void> {
    await ignoreInGit(this.dir);
  }

  async #refuseSymlinks(dirs: string[], missingOk = false): Promise<void> {
    await refuseSymlinkDirs(dirs, missingOk);
  }

  #serialise(runId: string, task: () => Promise<void>): Promise<void> {
    const previous = this.#pending.get(runId) ?? Promise.resolve();
    const next = previous.then(task);
    const settled = next.catch(() => undefined);
    this.#pending.set(runId, settled);
    void settled.then(() => {
      if (this.#pending.get(runId) === settled) this.#pending.delete(runId);
    });
    return next;
  }
}

/**
 * A `.gitignore` of `*` in the state directory `dir` (checked to be a real directory first), so runs
 * and conversations never show in `git status` and cannot be committed by accident, without
 * touching the repository's own .gitignore. An existing file of that name is left as it is.
 */
export async function ignoreInGit(dir: string): Promise<void> {
  const path = join(dir, '.gitignore');
  let fh;
  try {
    fh = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    unwritable(err, path, null);
  }
  try {
    await fh.writeFile(STATE_GITIGNORE);
  } finally {
    await fh.close();
  }
}

/**
 * REPO_INVALID when any of `paths` is a symlink (a missing one, or a file where a directory should be,
 * is left for the write to fail on): checked before each write into a run's or a conversation's
 * directories, so nothing is written through a link that appeared after they were made.
 */
export async function refuseLinks(paths: string[]): Promise<void> {
  for (const path of paths) {
    const st = await lstat(path).catch(() => undefined);
    if (st?.isSymbolicLink())
      throw new HammerError('REPO_INVALID', `${path} is a symlink; hammer-box never writes its state through a link`, {
        hint: 'remove it from the repository, or set [state] dir to another directory inside it',
      });
  }
}

/** REPO_INVALID unless each of `dirs` is a real directory (not a symlink); a missing one is fine with `missingOk`. */
export async function refuseSymlinkDirs(dirs: string[], missingOk = false): Promise<void> {
  for (const dir of dirs) {
    const st = await lstat(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (st === undefined && missingOk) continue;
    if (st?.isDirectory() !== true) {
      throw new HammerError(
        'REPO_INVALID',
        `${dir} is ${st === undefined ? 'missing' : st.isSymbolicLink() ? 'a symlink' : 'not a directory'}; hammer-box keeps its state only in a real directory`,
        { hint: 'remove it from the repository, or set [state] dir to another directory inside it' },
      );
    }
  }
}

/** Validate a state file's text; STATE_INVALID names the file and the field that is wrong. */
export function parseState(path: string, runId: string, text: string): RunState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HammerError('STATE_INVALID', `${path}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  const version =
    typeof json === 'object' && json !== null ? (json as Record<string, unknown>)['schema_version'] : undefined;
  if (version !== RUN_STATE_SCHEMA_VERSION) {
    throw new HammerError(
      'STATE_INVALID',
      `${path}: schema_version is ${JSON.stringify(version)}, this hammer-box reads ${RUN_STATE_SCHEMA_VERSION}`,
    );
  }
  const parsed = RunStateSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HammerError('STATE_INVALID', `${path}: ${issuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`, {
      cause: parsed.error,
    });
  }
  if (parsed.data.run_id !== runId) {
    throw new HammerError(
      'STATE_INVALID',
      `${path}: run_id: ${JSON.stringify(parsed.data.run_id)} does not match the file name`,
    );
  }
  return parsed.data;
}

/** A zod issue's path as `a.b[2].c`. */
export function issuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`;
  return out === '' ? '(root)' : out;
}

function checkRunId(runId: string): string {
  if (!isRunId(runId)) throw new HammerError('INTERNAL', `not a run id: ${JSON.stringify(runId)}`);
  return runId;
}

function checkArtifactName(name: string): string {
  if (!ArtifactNameSchema.safeParse(name).success)
    throw new HammerError('INTERNAL', `not an artifact name: ${JSON.stringify(name)}`);
  return name;
}

/** A regular file's bytes, never through a symlink, at most `maxBytes` (STATE_INVALID otherwise). */
export async function readCapped(path: string, maxBytes: number): Promise<Buffer> {
  const fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new HammerError('STATE_INVALID', `${path}: not a regular file`);
    if (st.size > maxBytes)
      throw new HammerError('STATE_INVALID', `${path}: ${st.size} bytes, over the ${maxBytes}-byte limit`);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/** The file system errors that mean the state directory cannot take a write (not a bug). */
const UNWRITABLE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO']);

/** Turn "no space", "read-only" and "no permission" into a typed error that says what to do. */
export function unwritable(err: unknown, path: string, runId: string | null): never {
  const code = (err as NodeJS.ErrnoException).code;
  if (code && UNWRITABLE.has(code)) {
    throw new HammerError('STATE_UNWRITABLE', `cannot write ${path}: ${(err as Error).message}`, {
      hint: `free space in (or fix the permissions of) ${dirname(path)}${runId ? `, then continue with: hammer-box resume ${runId}` : ''}`,
      cause: err,
    });
  }
  throw err;
}
