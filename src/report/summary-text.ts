// PR_SUMMARY.md's text for a run: its state and what its artifacts add. The API hands this to the
// loop (RunDeps.renderSummary), which writes it when the run ends: the loop never imports a report.
import type { RunState } from '../state/run-state.js';
import { renderPrSummary } from './pr-summary.js';
import { summaryExtras, type ReadArtifact } from './summary-extras.js';

/** The text of PR_SUMMARY.md for `state`, reading its artifacts through `readArtifact`. */
export async function prSummaryText(state: RunState, readArtifact: ReadArtifact): Promise<string> {
  const extras = await summaryExtras(state, readArtifact);
  return renderPrSummary(state, extras);
}
