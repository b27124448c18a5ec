#!/usr/bin/env node
// Print the `make security` table from the rows the security suite recorded (JSON lines of
// {attack, expected, observed, verdict}). Exits 1 when a row failed or none was recorded.
// Usage: node scripts/security-table.mjs <results.ndjson>
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: security-table.mjs <results.ndjson>\n');
  process.exit(2);
}
let text = '';
try {
  text = readFileSync(file, 'utf8');
} catch {
  process.stderr.write(`no security results in ${file}: did the suite run?\n`);
  process.exit(1);
}
const rows = [];
for (const line of text.split('\n')) {
  if (!line.trim()) continue;
  try {
    const r = JSON.parse(line);
    if (typeof r.attack === 'string' && typeof r.verdict === 'string') rows.push(r);
  } catch {
    // a torn line from an interrupted run is not a row
  }
}
// the rows are our own test's text, but may quote sandbox output: keep them to one clean line
const clean = (s) =>
  String(s ?? '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const widths = { attack: 46, expected: 52, observed: 78, verdict: 7 };
const cell = (s, w) => {
  const t = clean(s);
  return t.length > w ? `${t.slice(0, w - 1)}…` : t.padEnd(w);
};
const line = (r) =>
  `| ${cell(r.attack, widths.attack)} | ${cell(r.expected, widths.expected)} | ${cell(r.observed, widths.observed)} | ${cell(r.verdict, widths.verdict)} |`;
const rule = `|${Object.values(widths)
  .map((w) => '-'.repeat(w + 2))
  .join('|')}|`;
const out = [
  line({ attack: 'attack', expected: 'expected', observed: 'observed', verdict: 'verdict' }),
  rule,
  ...rows.map(line),
];
const failedRows = rows.filter((r) => r.verdict !== 'pass');
const failed = failedRows.length;
// each failure again in full below the count, so the last lines of a CI log say which attack failed and why
const bound = (s) => {
  const t = clean(s);
  return t.length > 600 ? `${t.slice(0, 599)}…` : t;
};
const details = failedRows.map(
  (r) => `FAIL ${bound(r.attack)}\n  expected: ${bound(r.expected)}\n  observed: ${bound(r.observed)}`,
);
process.stdout.write(
  `\n${out.join('\n')}\n\n${rows.length} attacks: ${rows.length - failed} pass, ${failed} FAIL\n` +
    (details.length ? `\n${details.join('\n')}\n` : ''),
);
process.exit(rows.length === 0 || failed > 0 ? 1 : 0);
