// The run's timeline: its phases and iterations as bars on one time axis (an inline SVG: geometry
// in attributes, colours from the style sheet, so no inline style is needed), each with its
// duration in a tooltip, and the iterations linking to their sections.
import type { RunState } from '../../state/run-state.js';
import { html, type Html } from '../html.js';
import { timeline, type TimelineSegment } from '../run-view.js';
import { duration } from './common.js';

const WIDTH = 1000;
const LANE = 18;
const GAP = 6;

function cls(s: TimelineSegment): string {
  return `seg seg-${s.kind} s-${/^[a-z_]+$/.test(s.status) ? s.status : 'unknown'}`;
}

/** The timeline of a run as an SVG with a caption. */
export function renderTimeline(state: RunState): Html {
  const { segments, totalMs } = timeline(state);
  if (segments.length === 0) return html`<p class="muted">nothing has run yet</p>`;
  const scale = totalMs > 0 ? WIDTH / totalMs : 0;
  const bar = (s: TimelineSegment, lane: number): Html => {
    const x = Math.min(WIDTH - 1, s.startMs * scale);
    const w = Math.max(1.5, Math.min(WIDTH - x, s.durationMs * scale));
    const tip = `${s.label}: ${s.status}, ${duration(s.durationMs)}`;
    const rect = html`<rect
      class="${cls(s)}"
      x="${x.toFixed(1)}"
      y="${lane * (LANE + GAP)}"
      width="${w.toFixed(1)}"
      height="${LANE}"
      ><title>${tip}</title></rect
    >`;
    return s.n === null ? rect : html`<a href="#iter-${s.n}">${rect}</a>`;
  };
  const height = 2 * LANE + GAP;
  return html`<figure class="timeline">
    <svg viewBox="0 0 ${WIDTH} ${height}" preserveAspectRatio="none" role="img" aria-label="timeline of the run">
      ${segments.filter((s) => s.kind === 'phase').map((s) => bar(s, 0))}
      ${segments.filter((s) => s.kind === 'iteration').map((s) => bar(s, 1))}
    </svg>
    <figcaption>
      <span>0</span><span class="muted">top: run phases; below: iterations (click one)</span
      ><span>${duration(totalMs)}</span>
    </figcaption>
    <ul class="phase-list">
      ${segments
        .filter((s) => s.kind === 'phase')
        .map(
          (s) =>
            html`<li>
              <span class="dot ${cls(s)}"></span>${s.label}
              <span class="muted">${s.status === 'done' ? '' : `${s.status} `}${duration(s.durationMs)}</span>
            </li>`,
        )}
    </ul>
  </figure>`;
}
