// Shared pieces of the `hammer-box run` integration suites: an environment free of the developer's
// HAMMER_* settings, config flags pointing at a scripted model server, and what a run left behind
// (refs in the user's repo, containers and volumes on the engine, state files).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Docker from 'dockerode';
import { vi } from 'vitest';
import { LABELS } from '../../src/sandbox/index.js';
import { RunStateSchema, type RunState } from '../../src/state/run-state.js';
import { unsealedBody } from '../../src/state/state-mac.js';
import type { FixtureRepo } from '../helpers/fixture-repo.js';
import type { ModelServer, RecordedRequest } from '../helpers/model-server.js';

/** The host environment without anything that would redirect a run (HAMMER_*, OLLAMA_HOST, API keys). */
export function testEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('HAMMER_') || ['OLLAMA_HOST', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'].includes(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** Config flags for a run against `server` (no retries, so a down server fails at once). */
export function modelFlags(
  server: Pick<ModelServer, 'url'>,
  opts: { provider?: 'ollama' | 'openai'; maxIterations?: number; numCtx?: number } = {},
): Record<string, unknown> {
  return {
    model: {
      provider: opts.provider ?? 'ollama',
      url: server.url,
      name: 'test-model',
      retries: 0,
      ...(opts.numCtx ? { num_ctx: opts.numCtx } : {}),
    },
    loop: { max_iterations: opts.maxIterations ?? 3 },
  };
}

/** Every ref of a repository, sorted (`refs/heads/main`, ...). */
export async function refsOf(repo: FixtureRepo): Promise<string[]> {
  const out = await repo.git(['for-each-ref', '--format=%(refname)']);
  return out.split('\n').filter(Boolean).sort();
}

/** The text of every message of a recorded chat request (system and user), joined. */
export function promptText(req: RecordedRequest | undefined): string {
  const body = req?.body as { messages?: { content?: unknown }[] } | undefined;
  return (body?.messages ?? [])
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')))
    .join('\n');
}

/** The run ids with a state file in the repository's .hammer/runs. */
export async function runIdsIn(repoPath: string): Promise<string[]> {
  const names = await readdir(join(repoPath, '.hammer', 'runs')).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length));
}

/** Read and validate a run's state file with the schema the store uses. */
export async function readState(repoPath: string, runId: string): Promise<RunState> {
  return readStateFile(join(repoPath, '.hammer', 'runs', `${runId}.json`));
}

/** A sealed state file at `path`, its seal set aside. */
export async function readStateFile(path: string): Promise<RunState> {
  return RunStateSchema.parse(JSON.parse(unsealedBody(await readFile(path, 'utf8'))));
}

/** Containers and volumes on the engine that carry the run's label. */
export async function leftovers(runId: string): Promise<{ containers: string[]; volumes: string[] }> {
  const docker = new Docker();
  const filters = { label: [`${LABELS.runId}=${runId}`] };
  const containers = await docker.listContainers({ all: true, filters });
  const volumes = await docker.listVolumes({ filters });
  return { containers: containers.map((c) => c.Id), volumes: (volumes.Volumes ?? []).map((v) => v.Name) };
}

/** Run `fn` with process.stdout captured; resolves with its result and what it printed. */
export async function captureStdout<T>(fn: () => Promise<T> | T): Promise<{ result: T; stdout: string }> {
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  try {
    return { result: await fn(), stdout };
  } finally {
    spy.mockRestore();
  }
}
