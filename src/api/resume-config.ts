// The configuration a resumed or replayed run uses. A state file is a record of what happened, not
// a source of trust: everything that decides trust (the repository, the model's URL and key, the
// state directory, [policy], the sandbox's limits, runtime and env, the branch prefix, plugins)
// comes from the current user's configuration, exactly as for a new run. From the record come only
// what makes the run reproducible: what its tests are, how answers are read, and its loop and
// prompt settings, each limit no higher than the current configuration allows.
import { z } from 'zod';
import { resolveConfig, type ResolvedConfig, type ResolveOptions } from '../config/resolve.js';
import {
  AgentConfigSchema,
  type Config,
  EditsConfigSchema,
  LOOP_MODES,
  LoopConfigSchema,
  PromptConfigSchema,
} from '../config/schema.js';
import { givenOverrides, type ModelOverrides } from '../loop/resume.js';
import type { RunState } from '../state/run-state.js';

/** Where the recorded values are said to come from (for `doctor` and messages). */
export const RECORDED_SOURCE = 'the recorded run';

const RecordedSchema = z.object({
  sandbox: z
    .object({ toolchain: z.string().min(1) })
    .partial()
    .optional(),
  tools: z.object({ test_command: z.string() }).partial().optional(),
  model: z
    .object({ provider: z.string(), replay_run: z.string(), edit_format: z.enum(['udiff', 'search-replace', 'auto']) })
    .partial()
    .optional(),
  edits: EditsConfigSchema.partial().optional(),
  // mode without its default: a record that does not name one keeps the current mode
  loop: LoopConfigSchema.omit({ mode: true })
    .partial()
    .extend({ mode: z.enum(LOOP_MODES).optional() })
    .optional(),
  prompt: PromptConfigSchema.partial().optional(),
  // numbers only, without the defaults the schema would fill in for a record that has none
  agent: z.partialRecord(z.enum(Object.keys(AgentConfigSchema.shape) as [string, ...string[]]), z.number()).optional(),
});

/**
 * `current` with the reproducibility keys of a recorded config (pure): the toolchain, the test
 * command, the edit format and strictness, a replay run's answers (unless `modelGiven`: a model
 * named for this resume is called instead), the loop mode, and the loop, prompt and agent numbers,
 * each no higher than `current`'s. Returns the config and the keys taken.
 */
export function applyRecorded(
  current: Config,
  recorded: unknown,
  modelGiven = false,
): { config: Config; taken: string[] } {
  const parsed = RecordedSchema.safeParse(recorded);
  const r = parsed.success ? parsed.data : {};
  const config = structuredClone(current);
  const taken: string[] = [];
  const take = (key: string, apply: () => void): void => {
    apply();
    taken.push(key);
  };
  if (r.sandbox?.toolchain !== undefined) {
    const toolchain = r.sandbox.toolchain;
    take('sandbox.toolchain', () => (config.sandbox.toolchain = toolchain));
  }
  if (r.tools?.test_command !== undefined) {
    const command = r.tools.test_command;
    take('tools.test_command', () => (config.tools.test_command = command));
  }
  if (r.model?.edit_format !== undefined) {
    const format = r.model.edit_format;
    take('model.edit_format', () => (config.model.edit_format = format));
  }
  if (r.edits?.strict !== undefined) {
    const strict = r.edits.strict;
    take('edits.strict', () => (config.edits.strict = strict));
  }
  // a replayed run resumed goes on answering from the same recorded answers (no model is called)
  if (r.model?.provider === 'replay' && r.model.replay_run && !modelGiven) {
    const run = r.model.replay_run;
    take('model.provider', () => {
      config.model.provider = 'replay';
      config.model.replay_run = run;
    });
  }
  // how the run made its candidates: a replayed agent run plays its trajectories back as one
  if (r.loop?.mode !== undefined) {
    const mode = r.loop.mode;
    take('loop.mode', () => (config.loop.mode = mode));
  }
  for (const table of ['loop', 'prompt', 'agent'] as const) {
    const rec = r[table];
    const cur = config[table] as Record<string, unknown>;
    for (const [name, value] of Object.entries(rec ?? {})) {
      const now = cur[name];
      if (typeof value !== 'number' || typeof now !== 'number' || value >= now) continue;
      take(`${table}.${name}`, () => (cur[name] = value));
    }
  }
  return { config, taken };
}

/** What resolveResumeConfig needs: the usual config sources and the run's record. */
export interface ResumeConfigOptions extends Pick<ResolveOptions, 'configFile' | 'flags' | 'env'> {
  repo: string;
  recorded: Pick<RunState, 'config'>;
  /** `resume --provider/--model/--llm-url`: the highest layer, over flags (see ModelOverrides). */
  model?: ModelOverrides;
}

/**
 * The one way `resume` and `replay` decide their configuration: the current user's, resolved as
 * for `run` (defaults < the repository's config within its limits < --config < environment <
 * flags, resume's model flags among them), then the record's reproducibility keys (see applyRecorded).
 */
export async function resolveResumeConfig(options: ResumeConfigOptions): Promise<ResolvedConfig> {
  const model = givenOverrides(options.model ?? {});
  const modelGiven = Object.keys(model).length > 0;
  const flags = modelGiven
    ? { ...options.flags, model: { ...((options.flags?.['model'] ?? {}) as Record<string, unknown>), ...model } }
    : options.flags;
  const current = await resolveConfig({
    repo: options.repo,
    ...(options.env ? { env: options.env } : {}),
    ...(options.configFile ? { configFile: options.configFile } : {}),
    ...(flags ? { flags } : {}),
  });
  const { config, taken } = applyRecorded(current.config, options.recorded.config, modelGiven);
  const sources = new Map(current.sources);
  for (const key of taken) sources.set(key, RECORDED_SOURCE);
  return { config, sources };
}
