// Chat and plan conversations on the monitor: a list under the runs, and a conversation's page, its
// transcript rendered from the sealed record (every text escaped, as PR_SUMMARY.md's markdown is).
import { renderTranscript } from '../../chat/transcript.js';
import type { Conversation } from '../../state/conversation.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { html, type Html } from '../html.js';
import type { Links, RunRef } from '../links.js';
import { renderMarkdown } from './markdown.js';
import { when } from './common.js';

/** One conversation found: which source holds it, and its record. */
export interface ListedConversation {
  ref: RunRef;
  conversation: Conversation;
}

/** The conversations section of the list ('' when there are none). */
export function renderConversationList(found: readonly ListedConversation[], links: Links): Html {
  if (found.length === 0) return html``;
  const rows = found.map(({ ref, conversation: c }) => {
    const first = c.goal ?? c.exchanges[0]?.user ?? '';
    return html`<tr>
      <td><a href="${links.conversation(ref)}">${c.id}</a></td>
      <td>${c.kind}</td>
      <td>${c.mode === 'plan' ? 'read-only' : 'code'}</td>
      <td class="num">${c.exchanges.length}</td>
      <td>${c.handoffs.map((h) => html`<code>${h.kind}</code> `)}</td>
      <td>${when(c.updated_at)}</td>
      <td class="directive">${sanitizeLine(first).slice(0, 120)}</td>
    </tr>`;
  });
  return html`<section id="conversations">
    <h2>conversations (${found.length})</h2>
    <table class="runs">
      <thead>
        <tr>
          <th>conversation</th>
          <th>kind</th>
          <th>mode</th>
          <th>exchanges</th>
          <th>handed to</th>
          <th>last</th>
          <th>first message</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </section>`;
}

/** A conversation's page: its transcript. */
export function renderConversationMain(found: ListedConversation, links: Links): Html {
  return html`<p class="crumbs"><a href="${links.list()}">runs</a> / <b>${found.conversation.id}</b></p>
    <article class="summary">${renderMarkdown(renderTranscript(found.conversation))}</article>`;
}
