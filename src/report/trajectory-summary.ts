// Agent mode in PR_SUMMARY.md: a short account of each trajectory (turns, tool calls, the commands
// run, the files edited, what was refused, how it ended). Every text is sanitised (pure).
import type { Iteration } from '../state/run-state.js';
import { inlineCode, table, tableCell } from '../text/markdown.js';
import { truncateText } from '../text/sanitize.js';

/** Commands listed per trajectory at most (the rest are counted). */
const LISTED_COMMANDS = 12;

/** The model's time in an iteration: its answer's, or the sum of its trajectory's turns. */
export function modelMs(it: Iteration): number | null {
  if (it.answer !== null) return it.answer.duration_ms;
  if (!it.trajectory) return null;
  return it.trajectory.turns.reduce((sum, t) => sum + t.duration_ms, 0);
}

/** Tokens an iteration's model requests read and wrote: its answer's, plus its trajectory's turns. */
export function iterationTokens(it: Iteration): { in: number; out: number } {
  let tin = it.answer?.prompt_tokens ?? 0;
  let tout = it.answer?.completion_tokens ?? 0;
  for (const t of it.trajectory?.turns ?? []) {
    tin += t.prompt_tokens ?? 0;
    tout += t.completion_tokens ?? 0;
  }
  return { in: tin, out: tout };
}

/** The "## Agent" section, or null when no iteration was a trajectory. */
export function renderTrajectories(iterations: readonly Iteration[]): string | null {
  const agent = iterations.filter((it) => it.trajectory !== undefined);
  if (agent.length === 0) return null;
  const rows = agent.map((it) => {
    const t = it.trajectory!;
    const bash = t.steps.filter((s) => s.tool === 'bash');
    const edits = t.steps.filter((s) => s.tool === 'edit' && !s.action.startsWith('view '));
    const refused = t.steps.filter((s) => s.outcome === 'refused').length;
    const tokens = iterationTokens(it);
    return [
      String(it.n),
      String(t.turns.length),
      String(t.steps.length),
      `${bash.length}${bash.some((s) => s.outcome !== 'ok') ? ` (${bash.filter((s) => s.outcome !== 'ok').length} failed)` : ''}`,
      String(edits.length),
      String(refused),
      tableCell(t.end === null ? 'unfinished' : t.end.reason),
      `${tokens.in + tokens.out}`,
    ];
  });
  const parts = [
    '## Agent',
    'Each iteration was a trajectory: the model ran commands and edited files in the sandbox, then submitted; the loop judged the change like any patch.',
    table(['#', 'Turns', 'Tool calls', 'Commands', 'Edits', 'Refused', 'Ended', 'Tokens'], rows),
  ];
  for (const it of agent) {
    const steps = it.trajectory!.steps;
    const commands = steps.filter((s) => s.tool === 'bash').map((s) => inlineCode(truncateText(s.action, 100)));
    const files = [
      ...new Set(
        steps
          .filter((s) => s.tool === 'edit' && s.outcome === 'ok' && !s.action.startsWith('view '))
          .map((s) => s.path ?? ''),
      ),
    ].filter((p) => p !== '');
    const lines: string[] = [];
    if (commands.length > 0) {
      const more = commands.length > LISTED_COMMANDS ? ` and ${commands.length - LISTED_COMMANDS} more` : '';
      lines.push(`- Commands: ${commands.slice(0, LISTED_COMMANDS).join(', ')}${more}`);
    }
    if (files.length > 0) lines.push(`- Files edited: ${files.map((f) => inlineCode(f)).join(', ')}`);
    const refused = steps.filter((s) => s.outcome === 'refused');
    for (const s of refused.slice(0, 5))
      lines.push(
        `- Refused: ${inlineCode(truncateText(s.action, 80))}: ${tableCell(truncateText(s.observation, 200))}`,
      );
    if (lines.length > 0) parts.push(`Iteration ${it.n}:\n\n${lines.join('\n')}`);
  }
  return parts.join('\n\n');
}
