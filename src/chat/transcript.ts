// transcript.md: a conversation, readable (pure): each exchange's message, the tool calls with what
// they showed, the answer, its tokens and time, and the change after it. Everything that came from
// the person, the model or the sandbox is sanitised and fenced.
import { fencedBlock, formatDuration, inlineCode } from '../text/markdown.js';
import { sanitizeLine, sanitizeText } from '../text/sanitize.js';
import type { Conversation, Exchange } from '../state/conversation.js';

/** Characters of one observation shown in the transcript (the state keeps 4,000). */
const OBSERVATION_CHARS = 2000;

/** The transcript's markdown. */
export function renderTranscript(c: Conversation): string {
  const out = [
    `# ${c.kind === 'plan' ? 'Plan' : 'Chat'} ${c.id}`,
    [
      `Repository ${inlineCode(sanitizeLine(c.repo.path))} at ${inlineCode(sanitizeLine(c.repo.base_ref))} (${c.repo.base_commit.slice(0, 12)}),`,
      `model ${inlineCode(sanitizeLine(`${c.model.provider}:${c.model.name}`))}, tests ${inlineCode(sanitizeLine(c.test_command))}.`,
      `Started ${c.created_at}, last ${c.updated_at}; ${c.exchanges.length} exchange${c.exchanges.length === 1 ? '' : 's'}, now in ${c.mode === 'plan' ? 'read-only' : 'code'} mode.`,
    ].join(' '),
  ];
  if (c.goal !== undefined) out.push(`Goal:\n\n${fencedBlock(sanitizeText(c.goal))}`);
  for (const e of c.exchanges) out.push(renderExchange(e));
  if (c.last_test) {
    const t = c.last_test;
    out.push(
      `## Last test run\n\n${inlineCode(sanitizeLine(t.command))}: ${t.timed_out ? 'timed out' : `exit ${t.exit_code}`} after ${formatDuration(t.duration_ms)}`,
    );
  }
  for (const h of c.handoffs)
    out.push(
      `## ${h.kind === 'branch' ? '/branch' : '/run'} at ${h.at}\n\nrun ${inlineCode(h.run_id)}${h.status ? `, ${sanitizeLine(h.status)}` : ''}${h.branch ? `, branch ${inlineCode(sanitizeLine(h.branch))}` : ''}`,
    );
  return `${out.join('\n\n')}\n`;
}

function renderExchange(e: Exchange): string {
  const parts = [`## ${e.n}. You${e.mode === 'plan' ? ' (read-only mode)' : ''}`, fencedBlock(sanitizeText(e.user))];
  if (e.steps.length > 0) {
    parts.push('### Tool calls');
    for (const s of e.steps) {
      const how = s.exit_code === undefined ? s.outcome : `exit ${s.exit_code}`;
      const obs = sanitizeText(s.observation);
      parts.push(
        `- ${inlineCode(sanitizeLine(s.action).slice(0, 300))} → ${how} (${formatDuration(s.duration_ms)})`,
        fencedBlock(obs.length > OBSERVATION_CHARS ? `${obs.slice(0, OBSERVATION_CHARS)}\n[... cut ...]` : obs),
      );
    }
  }
  const tokens = `${e.prompt_tokens.toLocaleString('en-US')} in, ${e.completion_tokens.toLocaleString('en-US')} out`;
  const ended =
    e.end.reason === 'answered'
      ? ''
      : `; ended: ${e.end.reason}${e.end.detail ? ` (${sanitizeLine(e.end.detail)})` : ''}`;
  parts.push(`### Answer (${tokens}, ${formatDuration(e.duration_ms)}${ended})`);
  if (e.answer !== '') parts.push(fencedBlock(sanitizeText(e.answer)));
  if (e.change) {
    const files = e.change.files.map((f) => inlineCode(sanitizeLine(f))).join(', ');
    parts.push(
      `Change after it: ${e.change.files.length} file${e.change.files.length === 1 ? '' : 's'}${files ? ` (${files})` : ''}, ${e.change.bytes} bytes of diff.`,
    );
  }
  return parts.join('\n\n');
}
