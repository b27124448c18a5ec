// The flags a printed command repeats so it reaches the same sandboxes under the same trust as the
// run it names: `--engine kubernetes`, `--kube-context`, `--trusted-repo`. Read from the run's
// configuration as recorded (the state file holds it as plain data), pure.
import { z } from 'zod';
import { shellWord } from '../text/shell-word.js';

const RecordedSchema = z.object({
  sandbox: z.object({ engine: z.string().optional(), trusted_repo: z.boolean().optional() }).partial().optional(),
  kubernetes: z.object({ context: z.string().optional() }).partial().optional(),
});

/**
 * " --engine kubernetes --kube-context ctx --trusted-repo" (each only when the run had it), or "".
 * `trust`: include --trusted-repo (a command that runs the repository again: resume, run); gc
 * and runs need only where the sandboxes are.
 */
export function backendFlags(config: unknown, options: { trust: boolean }): string {
  const parsed = RecordedSchema.safeParse(config);
  if (!parsed.success) return '';
  const { sandbox, kubernetes } = parsed.data;
  const flags: string[] = [];
  if (sandbox?.engine === 'kubernetes') {
    flags.push('--engine kubernetes');
    if (kubernetes?.context) flags.push(`--kube-context ${shellWord(kubernetes.context)}`);
  }
  if (options.trust && sandbox?.trusted_repo === true) flags.push('--trusted-repo');
  return flags.map((f) => ` ${f}`).join('');
}
