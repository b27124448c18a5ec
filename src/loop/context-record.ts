// What the state records of a prompt's context: each file or region shown, why, and its size.
import type { ContextResult } from '../context/index.js';
import type { PromptContextRecord } from '../state/run-state.js';

/** The state's record of a built context (files in rank order, then the map's outlines). */
export function contextRecord(context: ContextResult): PromptContextRecord {
  const items: PromptContextRecord['items'] = context.files.map((f) => ({
    path: f.path,
    reason: f.reason,
    ...(f.detail === '' ? {} : { detail: f.detail }),
    shown: f.whole ? 'whole' : 'regions',
    ...(f.whole ? {} : { lines: f.ranges.map((r) => `${r.start}-${r.end}`).join(',') }),
    chars: f.text.length,
  }));
  for (const m of context.map?.files ?? []) {
    items.push({ path: m.path, reason: 'map', shown: 'outline', chars: m.chars });
  }
  return { whole_repository: context.wholeRepository, items };
}
