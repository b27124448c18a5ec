// What `batch compare` prints: the paired table, the ids in each cell, the test, pass@k. Pure;
// markdown that reads as plain text in a terminal (ids and labels sanitised and escaped).
import { table, tableCell } from '../text/markdown.js';
import type { Comparison } from './compare.js';
import { percent } from './report-md.js';

/** Labels of the two sides (a path or name, and the model each report names). */
export interface Sides {
  a: { label: string; model: string };
  b: { label: string; model: string };
}

/** The comparison as markdown lines. */
export function renderComparison(c: Comparison, sides: Sides): string {
  const paired = c.both.length + c.onlyA.length + c.onlyB.length + c.neither.length;
  const out: string[] = [
    `# hammer-box batch compare`,
    '',
    `- A: ${tableCell(sides.a.label)} (model ${tableCell(sides.a.model)})`,
    `- B: ${tableCell(sides.b.label)} (model ${tableCell(sides.b.model)})`,
    '',
    table(
      ['', 'B stable', 'B not stable'],
      [
        ['**A stable**', `${c.both.length} (both)`, `${c.onlyA.length} (only A)`],
        ['**A not stable**', `${c.onlyB.length} (only B)`, `${c.neither.length} (neither)`],
      ],
    ),
    '',
    `${paired} paired task${paired === 1 ? '' : 's'}: A solved ${c.both.length + c.onlyA.length}, B solved ${c.both.length + c.onlyB.length}; exact McNemar test on the ${c.onlyA.length + c.onlyB.length} solved by one only: p = ${c.pValue.toFixed(3)}.`,
    '',
  ];
  const ids = (name: string, list: readonly string[]): void => {
    if (list.length > 0) out.push(`- ${name} (${list.length}): ${list.map(tableCell).join(', ')}`);
  };
  ids('only A', c.onlyA);
  ids('only B', c.onlyB);
  ids('both', c.both);
  ids('neither', c.neither);
  if (c.left.length > 0)
    out.push(
      `- left out (${c.left.length}, no verdict on one side): ${c.left
        .map((l) => `${tableCell(l.id)} (A ${l.a ?? 'absent'}, B ${l.b ?? 'absent'})`)
        .join(', ')}`,
    );
  out.push('');
  const most = Math.max(c.passA.length, c.passB.length);
  if (most > 1) {
    const rows: string[][] = [];
    for (let i = 0; i < most; i++) {
      const at = (list: Comparison['passA']): string => {
        const p = list[i];
        return p ? `${percent(p.value)} (${p.tasks})` : '-';
      };
      rows.push([String(i + 1), at(c.passA), at(c.passB), at(c.pairedPassA), at(c.pairedPassB)]);
    }
    out.push(table(['k', 'pass@k A (tasks)', 'pass@k B (tasks)', 'A, paired tasks', 'B, paired tasks'], rows), '');
  }
  return out.join('\n');
}
