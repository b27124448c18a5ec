// One artifact of a run as a page: a prompt, an answer, a patch (laid out as a diff), a test log or
// the run's log, always as escaped text.
import type { ArtifactHead } from '../../state/run-inspect.js';
import { html, type Html } from '../html.js';
import type { Links, RunRef } from '../links.js';
import { bytes } from './common.js';
import { renderDiff } from './diff.js';

/** An artifact's main part. */
export function renderArtifactMain(ref: RunRef, name: string, head: ArtifactHead, links: Links): Html {
  const body = name.endsWith('.patch') ? renderDiff(head.text) : html`<pre class="text artifact">${head.text}</pre>`;
  return html`<p class="crumbs">
      <a href="${links.run(ref)}">${ref.runId}</a> / <b>${name}</b> <span class="muted">${bytes(head.size)}</span>
    </p>
    ${head.truncated ? html`<p class="muted">the first ${bytes(Buffer.byteLength(head.text))} of ${bytes(head.size)}</p>` : ''}
    ${body}`;
}
