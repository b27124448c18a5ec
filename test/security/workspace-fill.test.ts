// Tests that fill the workspace and /tmp: the writes stop at the configured sizes, and the loop
// goes on. Filling the workspace used to end the run: the next iteration's `git reset --hard`
// needs room for the index, failed with ENOSPC, and the runner reported the sandbox broken.
import { describe, expect, it } from 'vitest';
import { answerWith } from '../helpers/python-fixture.js';
import { attackScript, SWITCH_ANSWER } from './support/attack-script.js';
import { attack } from './support/record.js';
import { expectCanarySafe, expectNoLeftovers, runScene, type Outcome, type Scene } from './support/scene.js';
import { attackFileHooks } from './support/hooks.js';

const FILL = `dd if=/dev/zero of=fill.bin bs=1M count=400 2>&1; echo "workspace-bytes=$(wc -c < fill.bin)"
dd if=/dev/zero of=/tmp/fill.bin bs=1M count=400 2>&1; echo "tmp-bytes=$(wc -c < /tmp/fill.bin)"
exit 1`;
const CONTROL = `rm -f /tmp/fill.bin; echo ok > /tmp/after.txt && echo ok > after.txt && echo writes-ok`;
const CONFIG = '[sandbox]\nworkspace_size = "64m"\ntmp_size = "16m"\n';

/** attack.sh starting benign; the first patch turns the attack on, the second switches to the control. */
const BENIGN_FIRST = attackScript(FILL, CONTROL)
  .replace('mode=attack\n', 'mode=benign\n')
  .replace('if [ "$mode" = attack ]', 'if [ "$mode" = benign ]; then\necho benign\nelif [ "$mode" = attack ]');
const TO_ATTACK = `diff --git a/attack.sh b/attack.sh
--- a/attack.sh
+++ b/attack.sh
@@ -1,2 +1,2 @@
-mode=benign
+mode=attack
 # hostile test script: the model's patch switches it to the control
`;

const { scene } = attackFileHooks();

function expectFilled(text: string): { ws: number; tmp: number } {
  expect(text).toMatch(/No space left on device/);
  const ws = Number(/workspace-bytes=(\d+)/.exec(text)?.[1]);
  const tmp = Number(/tmp-bytes=(\d+)/.exec(text)?.[1]);
  expect(ws).toBeGreaterThan(0);
  expect(ws).toBeLessThanOrEqual(64 * 1024 * 1024);
  expect(tmp).toBeGreaterThan(0);
  expect(tmp).toBeLessThanOrEqual(16 * 1024 * 1024);
  return { ws, tmp };
}

function note(f: { ws: number; tmp: number }): string {
  return `stopped at ${(f.ws / 2 ** 20).toFixed(0)} MiB in /workspace (64m), ${(f.tmp / 2 ** 20).toFixed(0)} MiB in /tmp (16m)`;
}

describe('tests that fill the workspace and /tmp', () => {
  it('in an iteration: writes stop at the sizes, the next iteration resets the tree and goes on', async () => {
    const s: Scene = await scene({
      files: { 'attack.sh': BENIGN_FIRST },
      answers: [{ answer: answerWith(TO_ATTACK) }, { answer: SWITCH_ANSWER }],
      testCommand: 'sh attack.sh',
      maxIterations: 2,
      config: CONFIG,
    });
    const out: Outcome = await runScene(s);
    await attack(
      'filling /workspace and /tmp in an iteration',
      'ENOSPC at workspace_size and tmp_size; next iteration works',
      async () => {
        const [filled, after] = [out.state.iterations[0]?.test, out.state.iterations[1]?.test];
        expect(filled, `${out.state.status}: ${out.state.reason_detail ?? ''}`).toBeTruthy();
        const f = expectFilled(`${filled!.stdout_tail}\n${filled!.stderr_tail}`);
        expect(after?.stdout_tail ?? '', `${out.state.status}: ${out.state.reason_detail ?? ''}`).toContain(
          'writes-ok',
        );
        await expectNoLeftovers(out.runId);
        await expectCanarySafe(s, out);
        return `${note(f)}; the next iteration reset the tree and wrote`;
      },
    );
  });

  it('at baseline: writes stop at the sizes, and the run goes on', async () => {
    const s: Scene = await scene({
      files: { 'attack.sh': attackScript(FILL, CONTROL) },
      answers: [{ answer: SWITCH_ANSWER }],
      testCommand: 'sh attack.sh',
      maxIterations: 1,
      config: CONFIG,
    });
    const out: Outcome = await runScene(s);
    await attack(
      'filling /workspace and /tmp at baseline',
      'ENOSPC at workspace_size and tmp_size; iteration 1 works',
      async () => {
        const baseline = out.state.baseline;
        expect(baseline).toBeTruthy();
        const f = expectFilled(`${baseline!.stdout_tail}\n${baseline!.stderr_tail}`);
        expect(
          out.state.iterations[0]?.test?.stdout_tail ?? '',
          `${out.state.status}: ${out.state.reason_detail ?? ''}`,
        ).toContain('writes-ok');
        await expectNoLeftovers(out.runId);
        await expectCanarySafe(s, out);
        return `${note(f)}; iteration 1 wrote`;
      },
    );
  });
});
