// `hammer-box runs list`
import { listRuns, runSummary, type RunListing } from '../../api/runs.js';
import { renderRunTable } from '../../report/run-line.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { printJson } from '../terminal-json.js';

/** Lines for stderr: each state file that could not be read, and why. */
export function renderSkipped(listing: RunListing): string[] {
  return listing.skipped.map((s) => `hammer-box: skipped ${sanitizeLine(s.file)}: ${sanitizeLine(s.message)}`);
}

export default async function runsList(f: { repo: string; json?: boolean }): Promise<number> {
  const listing = await listRuns({ repo: f.repo, env: process.env });
  const notes = renderSkipped(listing);
  if (f.json) printJson(listing.runs.map(runSummary));
  else if (listing.runs.length === 0) notes.push(`no runs in ${sanitizeLine(listing.dir)}`);
  else process.stdout.write(`${renderRunTable(listing.runs).join('\n')}\n`);
  if (notes.length > 0) process.stderr.write(`${notes.join('\n')}\n`);
  return 0;
}
