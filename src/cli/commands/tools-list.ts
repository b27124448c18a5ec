// `hammer-box tools list`
import { resolveConfig } from '../../config/resolve.js';
import { loadToolPlugins } from '../../tools/plugins.js';
import { ToolRegistry } from '../../tools/registry.js';

export default async function toolsList(opts: { json?: boolean; config?: string }): Promise<number> {
  const { config } = await resolveConfig(opts.config ? { configFile: opts.config } : {});
  const registry = new ToolRegistry();
  await loadToolPlugins(registry, config.tools.plugins);
  const contracts = registry.contracts();
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(contracts, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(`${'NAME'.padEnd(16)} DESCRIPTION\n`);
  for (const c of contracts) {
    const input = c.input as { properties?: Record<string, unknown> };
    const args = Object.keys(input.properties ?? {}).join(', ') || '-';
    process.stdout.write(`${c.name.padEnd(16)} ${c.description}  (input: ${args}; timeout ${c.timeout_sec}s)\n`);
  }
  return 0;
}
