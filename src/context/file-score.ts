// What a file's definitions are worth by the names the failure leads to (pure): its strongest lead (less
// when many files define the name, less for another spelling of it), the names matched, what to say.
import type { Definition, SourceAnalysis } from '../syntax/index.js';
import { WEIGHT, type Lead } from './leads.js';
import { MAX_REGION_LINES } from './regions.js';

export type { Lead } from './leads.js';

/** Names said in one file's reason at most. */
const MAX_SAID = 3;

/** A name's spelling without case and separators: `help_option`, `HelpOption` and `helpOption` are one. */
export function nameKey(name: string): string {
  return name.replace(/[_$]/g, '').toLowerCase();
}

/** Strong leads by nameKey: a definition spelled otherwise (`HelpOption` for `help_option`) matches one. */
export function variantLeads(leads: ReadonlyMap<string, Lead>): Map<string, Lead> {
  const out = new Map<string, Lead>();
  for (const [name, lead] of leads) {
    if (lead.weight < WEIGHT.derived || nameKey(name).length < 4) continue;
    const key = nameKey(name);
    const known = out.get(key);
    if (known === undefined || known.weight < lead.weight) out.set(key, lead);
  }
  return out;
}

/** What a file's definitions are worth, the names matched with their worth, and what to say of it. */
export interface FileScore {
  score: number;
  top: { name: string; lead: Lead } | null;
  /** The names matched, strongest first. */
  names: string[];
  /** What each name matched is worth. */
  values: Map<string, number>;
  /** Names matched only as another spelling of a lead (`HelpOption` for `help_option`). */
  variants: string[];
}

/**
 * What a file's definitions are worth: its strongest lead (less when many files define the name, less
 * for another spelling of it); the names matched, strongest first; and what to say of it
 * (`configureOutput and command`, with the lead).
 */
export function scoreFile(
  analysis: SourceAnalysis | null,
  leads: ReadonlyMap<string, Lead>,
  defined: ReadonlyMap<string, number>,
  variants: ReadonlyMap<string, Lead> = new Map(),
): FileScore {
  const none: FileScore = { score: 0, top: null, names: [], values: new Map(), variants: [] };
  if (analysis === null) return none;
  const matched = new Map<string, number>();
  const spelled = new Set<string>();
  const best: { d: Definition; lead: Lead; value: number }[] = [];
  for (const d of analysis.definitions) {
    let lead = leads.get(d.name);
    let penalty = 0;
    const variant = d.kind === 'variable' || d.kind === 'const' ? undefined : variants.get(nameKey(d.name));
    if (variant !== undefined && variant.weight - 1 > (lead?.weight ?? 0)) {
      lead = variant;
      penalty = 1;
      spelled.add(d.name);
    }
    if (lead === undefined) continue;
    // a name many files define says little about any one of them
    const n = defined.get(d.name) ?? 1;
    const value = (n <= 3 ? lead.weight : lead.weight * (3 / n)) - penalty;
    matched.set(d.name, Math.max(matched.get(d.name) ?? 0, value));
    best.push({ d, lead, value });
  }
  const score = Math.max(0, ...best.map((b) => b.value));
  if (score <= 0) return none;
  // a definition short enough to show says more than a long class with the same lead
  const tops = best.filter((b) => b.value === score);
  const short = tops.filter((b) => b.d.endLine - b.d.startLine < MAX_REGION_LINES);
  const said = (short.length > 0 ? short : tops).filter((b) => b.lead.why === tops[0]!.lead.why);
  const names = [...new Set(said.map((b) => b.lead.as ?? b.d.name))].slice(0, MAX_SAID);
  const name = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return {
    score,
    top: { name, lead: said[0]!.lead },
    names: [...matched].sort((a, b) => b[1] - a[1]).map(([n]) => n),
    values: matched,
    variants: [...spelled],
  };
}
