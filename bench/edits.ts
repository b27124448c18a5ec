// Edit benchmark: the share of the edit corpus (test/fixtures/edits) the apply ladder applies
// correctly, beside strict `git apply` (the patch as written, the first rung only); how many it
// applied wrongly (must be 0); the refusals held, by why; the cut-off answers refused alike with no
// finish reason and with "length"; per rung; plus the host's own cost of building the ladder for
// one answer. The ladder's git checks run on the host in temp
// repositories (the same `git apply --check` / `git apply` with the same flags the sandbox's step
// op runs), so the figures measure the ladder, not Docker.
import { RUNGS, rungLabel } from '../src/edits/index.js';
import { interpretAnswer } from '../src/loop/interpret-answer.js';
import { loadEditCorpus, type EditCase } from '../test/fixtures/edits/corpus.js';
import { readFromTree, runLadderOnHost, type LadderOutcome } from '../test/fixtures/edits/host-ladder.js';
import { heading, printFigure } from './lib.js';

const same = (a: ReadonlyMap<string, string> | null, b: ReadonlyMap<string, string> | null): boolean =>
  a !== null && b !== null && a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

/** True when the outcome is what the case needs: the expected files, or nothing applied. */
function correct(c: EditCase, o: LadderOutcome): boolean {
  return c.expect === 'applied' ? o.outcome === 'applied' && same(o.files, c.after) : o.outcome !== 'applied';
}

/** Why the ladder refused a case, in a few words. */
function refusalKind(o: LadderOutcome): string {
  const i = o.interpretation;
  if (i.kind === 'unusable')
    return i.cutOff === undefined
      ? 'refused before git (vetting)'
      : i.cutOff.by === 'server'
        ? 'cut off (the server said)'
        : 'cut off (the answer shows)';
  if (i.kind === 'no_changes') return 'NO_CHANGES';
  if (o.gate !== null) return 'new syntax error (gate)';
  const kinds = new Set(i.failures.map((f) => f.kind));
  for (const [kind, label] of [
    ['already_applied', 'already applied'],
    ['no_change', 'changes nothing'],
    ['guessed_path', 'guessed file name'],
    ['repeats_beside', 'not found (closest region)'],
    ['not_found', 'not found (closest region)'],
  ] as const)
    if (kinds.has(kind)) return label;
  return i.candidates.length === 0 ? 'not placed (host feedback)' : 'git refused every rung';
}

const pct = (n: number, d: number): string => `${n}/${d} (${d === 0 ? 0 : Math.round((100 * n) / d)}%)`;

/** Run the edit benchmark and print its figures. */
export async function benchEdits(): Promise<void> {
  const corpus = await loadEditCorpus();
  const shouldApply = corpus.filter((c) => c.expect === 'applied');
  const mustRefuse = corpus.filter((c) => c.expect !== 'applied');
  heading(
    `edits: the apply ladder over the edit corpus (${corpus.length} model-style answers: ${shouldApply.length} to apply, ${mustRefuse.length} to refuse; ` +
      'git checks run on the host in temp repos, the same commands the sandbox runs)',
  );
  const ladder = new Map<string, LadderOutcome>();
  const strict = new Map<string, LadderOutcome>();
  for (const c of corpus) {
    ladder.set(c.name, await runLadderOnHost(c));
    strict.set(c.name, await runLadderOnHost(c, { strict: true }));
  }
  const okLadder = shouldApply.filter((c) => correct(c, ladder.get(c.name)!)).length;
  const okStrict = shouldApply.filter((c) => correct(c, strict.get(c.name)!)).length;
  const wrong = (m: Map<string, LadderOutcome>): number =>
    corpus.filter((c) => m.get(c.name)!.outcome === 'applied' && !correct(c, m.get(c.name)!)).length;
  const held = (m: Map<string, LadderOutcome>): number => mustRefuse.filter((c) => correct(c, m.get(c.name)!)).length;
  const out: string[] = [];
  out.push(
    `applied correctly         ladder ${pct(okLadder, shouldApply.length).padEnd(12)}  strict git apply ${pct(okStrict, shouldApply.length)}`,
  );
  out.push(`applied wrongly           ladder ${String(wrong(ladder)).padEnd(12)}  strict git apply ${wrong(strict)}`);
  out.push(
    `refusals held             ladder ${pct(held(ladder), mustRefuse.length).padEnd(12)}  strict git apply ${pct(held(strict), mustRefuse.length)}`,
  );
  out.push('refusals held, by why (ladder):');
  const why = new Map<string, number>();
  for (const c of mustRefuse.filter((x) => correct(x, ladder.get(x.name)!))) {
    const k = refusalKind(ladder.get(c.name)!);
    why.set(k, (why.get(k) ?? 0) + 1);
  }
  for (const [k, n] of [...why].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])))
    out.push(`  ${k.padEnd(28)} ${String(n).padStart(3)}`);
  // a server that sends no finish reason, beside one that sends "length", for every cut-off answer
  const cut = corpus.filter((c) => {
    const i = ladder.get(c.name)!.interpretation;
    return i.kind === 'unusable' && i.cutOff !== undefined;
  });
  let alike = 0;
  for (const c of cut) {
    const silent = await runLadderOnHost({ ...c, finishReason: undefined });
    const length = await runLadderOnHost({ ...c, finishReason: 'length' });
    const refused = (o: LadderOutcome): boolean =>
      o.interpretation.kind === 'unusable' && o.interpretation.cutOff !== undefined;
    if (refused(silent) && refused(length)) alike++;
  }
  out.push(
    `cut-off answers refused alike with no finish reason and with "length": ${pct(alike, cut.length)} (the rest show no cut in their text)`,
  );
  out.push('applied correctly, by the rung that applied it (ladder):');
  for (const rung of RUNGS) {
    const landed = shouldApply.filter(
      (c) => ladder.get(c.name)!.rung === rung && correct(c, ladder.get(c.name)!),
    ).length;
    const expected = shouldApply.filter((c) => c.rung === rung).length;
    out.push(
      `  ${String(RUNGS.indexOf(rung) + 1)} ${rung.padEnd(15)} ${String(landed).padStart(3)}  (corpus cases written for this rung: ${expected}; ${rungLabel(rung)})`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);

  // the host's share of an iteration: extraction, vetting and every rung's candidate for one answer
  const samples: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const c of corpus) {
      const t0 = performance.now();
      await interpretAnswer(c.answer, { maxDiffLines: 500, format: c.format }, readFromTree(c.before));
      if (round > 0) samples.push(performance.now() - t0);
    }
  }
  printFigure({ name: 'host: extract, vet and build the ladder for one answer', samples });
}
