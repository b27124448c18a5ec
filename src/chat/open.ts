// Opening a conversation: the configuration and the repository's environment as `run` resolves
// them, the image, one hardened sandbox of the base commit, the model; then a new conversation, or
// a recorded one continued on a sandbox rebuilt from its base and its recorded change.
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { agentToolsText } from '../agent/tool-specs.js';
import { lazyProvider } from '../api/lazy-provider.js';
import { readRepoEnvironment } from '../api/repo-environment.js';
import { resolveImage } from '../api/resolve-image.js';
import { checkGuarantees, openEngine } from '../api/open-engine.js';
import { clock } from '../api/run.js';
import { assertStateUntracked } from '../api/run-store.js';
import { resolveConfig } from '../config/resolve.js';
import type { Config } from '../config/schema.js';
import { HammerError } from '../errors.js';
import { startModelGate } from '../loop/model-gate.js';
import { prepare, type Prepared } from '../loop/prepare.js';
import { resolveRuntime } from '../loop/runtime.js';
import { packageRoot } from '../paths.js';
import { pidAlive } from '../sandbox/gc.js';
import { ConversationStore } from '../state/conversation-store.js';
import type { ChatMode, Conversation, ConversationKind } from '../state/conversation.js';
import { stateDirIn } from '../state/state-dir.js';
import { loadStateKey } from '../state/state-key.js';
import { chatSystemMessage } from './prompt.js';
import { recordedBase } from './base.js';
import { newConversation } from './record.js';
import { ChatSession } from './session.js';

/** What to open. */
export interface OpenChatOptions {
  repo: string;
  configFile?: string;
  /** Config keys set on the command line (the highest layer). */
  flags?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  kind: ConversationKind;
  /** Continue a recorded conversation: its id, or the one updated last. */
  resume?: string | { latest: true };
  /** The mode a new conversation starts in (plan: read-only). */
  mode?: ChatMode;
  /** plan: the goal. */
  goal?: string;
  /** Image build and dependency setup progress (first use only). */
  onImageProgress?: (line: string) => void;
}

/** An open conversation and what goes with it. */
export interface OpenChat {
  session: ChatSession;
  /** Where the configuration came from: what `/run` and `/branch` hand the run API. */
  sources: { repo: string; configFile?: string; flags: Record<string, unknown>; env: NodeJS.ProcessEnv };
  /** The one line saying what detection decided. */
  environmentLine: string;
  /** A warning to show: the sandbox backend cannot prove "no network" for this trusted repository, or (continuing) the recorded change could not be put back. */
  warning: string | null;
  /** A new conversation for `/new` (same repository, base and sandbox). */
  fresh(): Conversation;
  /** Remove the sandbox and the workbench, close the model client (the conversation stays recorded). */
  close(): Promise<void>;
}

/** Open a chat or plan conversation on a fresh sandbox of the repository's base commit. */
export async function openChat(options: OpenChatOptions): Promise<OpenChat> {
  const env = options.env ?? process.env;
  const repo = resolve(options.repo);
  const sig = options.signal ? { signal: options.signal } : {};
  const base = { repo, env, ...(options.configFile ? { configFile: options.configFile } : {}) };
  let flags = options.flags ?? {};
  let resolved = await resolveConfig({ ...base, flags });
  const store = new ConversationStore({
    dir: await stateDirIn(repo, resolved.config.state.dir),
    key: await loadStateKey(env),
  });
  let recorded: Conversation | null = null;
  if (options.resume !== undefined) {
    recorded = await findConversation(store, options.resume);
    // the conversation goes on from the base it recorded, whatever the branch points at now
    flags = { ...flags, git: { ...asRecord(flags['git']), base: await recordedBase(repo, recorded, options.signal) } };
    resolved = await resolveConfig({ ...base, flags });
  }
  if (resolved.config.model.provider === 'replay')
    throw new HammerError('USAGE', 'a conversation needs a model server; the replay provider only plays runs back', {
      hint: 'use --provider ollama or openai (and --llm-url)',
    });
  const toolchainExplicit =
    resolved.sources.get('sandbox.toolchain') !== join(packageRoot(), 'configs', 'default.toml');
  const repoEnv = await readRepoEnvironment(repo, resolved.config, { toolchainExplicit, keep: true, ...sig });
  const made: Partial<Prepared> = {};
  const provider = lazyProvider(resolved.config.model, { env });
  const gate = startModelGate(provider, options.signal, true);
  try {
    let config: Config = {
      ...resolved.config,
      sandbox: { ...resolved.config.sandbox, toolchain: repoEnv.toolchain ?? resolved.config.sandbox.toolchain },
    };
    await assertStateUntracked(repo, repoEnv.userRepo, config, repoEnv.userRepo.baseCommit, options.signal);
    const { docker, engine } = await openEngine(env, config, false, gate.signal);
    const runtime = await resolveRuntime(config.sandbox.runtime, engine, gate.signal);
    config = { ...config, sandbox: { ...config.sandbox, runtime } };
    const image = await resolveImage(docker, config, {
      repoEnv,
      env,
      signal: gate.signal,
      ...(options.onImageProgress
        ? {
            onProgress: options.onImageProgress,
            onSetupStart: (t: string) =>
              options.onImageProgress?.(`installing dependencies into ${t} (once; later runs reuse it)`),
            onSetupOutput: options.onImageProgress,
          }
        : {}),
    });
    // an untrusted repository's sandbox needs a backend that proves "no network" (as a run's does)
    const trustWarning = await checkGuarantees(engine, config, image.ref, gate.signal);
    const now = clock(env);
    const id = recorded?.id ?? store.newId(now());
    const prep = await prepare(
      id,
      { config, ...(repoEnv.workbench ? { workbench: repoEnv.workbench } : {}) },
      { engine, signal: gate.signal },
      repoEnv.userRepo,
      image,
      (p) => Object.assign(made, p),
    );
    await prep.ready();
    await gate.ready();
    const deps = {
      provider,
      store,
      repo: prep.repo,
      base: prep.sandboxHead,
      config,
      testCommand: repoEnv.testCommand,
      now,
    };
    const owner = { pid: process.pid, host: hostname() };
    const fresh = (): Conversation =>
      newConversation({
        id: store.newId(now()),
        kind: options.kind,
        now: now(),
        repo: {
          path: repoEnv.userRepo.root,
          base_ref: repoEnv.userRepo.base,
          base_commit: repoEnv.userRepo.baseCommit,
          base_tree: repoEnv.userRepo.baseTree,
        },
        model: { provider: config.model.provider, name: config.model.name, url: config.model.url },
        image: { ref: image.ref, id: image.id },
        testCommand: repoEnv.testCommand,
        mode: options.mode ?? 'code',
        system: chatSystemMessage({
          testCommand: repoEnv.testCommand,
          commandTimeoutS: config.agent.command_timeout,
          native: config.model.tools === 'auto',
          toolsText: agentToolsText(),
        }),
        ...(options.goal === undefined ? {} : { goal: options.goal }),
        owner,
      });
    let session: ChatSession;
    let warning = trustWarning;
    if (recorded) {
      const r = await ChatSession.resume(deps, { ...recorded, owner }, gate.signal);
      session = r.session;
      warning = [trustWarning, r.warning].filter((w) => w !== null).join('; ') || null;
    } else {
      const first = fresh();
      session = await ChatSession.start(deps, { ...first, id });
    }
    gate.dispose();
    return {
      session,
      sources: { repo, ...(options.configFile ? { configFile: options.configFile } : {}), flags, env },
      environmentLine: repoEnv.environment.line,
      warning,
      fresh,
      close: async () => {
        await Promise.allSettled([made.sandbox?.destroy(), made.workbench?.dispose(), provider.close()]);
      },
    };
  } catch (err) {
    gate.dispose();
    await Promise.allSettled([made.sandbox?.destroy(), made.workbench?.dispose(), provider.close()]);
    if (!made.workbench) await repoEnv.workbench?.dispose();
    throw gate.failure() ?? err;
  }
}

/** The conversation to continue: by id, or the one updated last; refused while another process has it open. */
async function findConversation(store: ConversationStore, which: string | { latest: true }): Promise<Conversation> {
  let c: Conversation;
  if (typeof which === 'string') c = await store.read(which);
  else {
    const { conversations } = await store.list();
    const last = conversations[0];
    if (last === undefined)
      throw new HammerError('USAGE', 'there is no conversation to continue in this repository', {
        hint: "start one with 'hammer-box chat --repo <path>'",
      });
    c = last;
  }
  if (c.owner && c.owner.host === hostname() && c.owner.pid !== process.pid && pidAlive(c.owner.pid))
    throw new HammerError('USAGE', `conversation ${c.id} is open in another hammer-box (pid ${c.owner.pid})`, {
      hint: 'leave it there first (/quit), or start a new one with --new',
    });
  return c;
}

function asRecord(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
}
