// `hammer-box chat list`
import { conversationSummary, listConversations } from '../../chat/list.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { printJson } from '../terminal-json.js';

export default async function chatList(f: { repo: string; json?: boolean; config?: string }): Promise<number> {
  const listing = await listConversations({
    repo: f.repo,
    env: process.env,
    ...(f.config ? { configFile: f.config } : {}),
  });
  const notes = listing.skipped.map((s) => `hammer-box: skipped ${sanitizeLine(s.file)}: ${sanitizeLine(s.message)}`);
  if (f.json) printJson(listing.conversations.map(conversationSummary));
  else if (listing.conversations.length === 0) notes.push(`no conversations in ${sanitizeLine(listing.dir)}`);
  else {
    const rows = listing.conversations.map((c) => [
      c.id,
      c.kind,
      c.mode === 'plan' ? 'read-only' : 'code',
      String(c.exchanges.length),
      c.updated_at.replace(/\.\d+Z$/, 'Z'),
      sanitizeLine(c.goal ?? c.exchanges[0]?.user ?? '').slice(0, 60),
    ]);
    const header = ['ID', 'KIND', 'MODE', 'EXCH', 'UPDATED', 'FIRST MESSAGE'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]): string =>
      cells
        .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd();
    process.stdout.write(`${[line(header), ...rows.map(line)].join('\n')}\n`);
  }
  if (notes.length > 0) process.stderr.write(`${notes.join('\n')}\n`);
  return 0;
}
